#!/usr/bin/env bash
T0=$(date +%s); export PATH=/usr/local/cuda/bin:$PATH; B=/root/b
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/summary.txt
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPRIM_INSTANTIATION_ROWS_PER_FILE=1 -DGPUPRIM_ENABLE_DIST=OFF > $OUT/build.log 2>&1
cmake --build $B -j 16 --target gpuprim_cuda_tests -- -k 0 >> $OUT/build.log 2>&1
echo "build rc=$? at $(( $(date +%s) - T0 )) s" >> $OUT/summary.txt
grep -E "error|FAILED" $OUT/build.log | head -30 >> $OUT/summary.txt
cd $B && GPUPRIM_TEST_DATA_DIR=$OLDPWD/tests/data ctest -j 10 -L cuda -LE dist --timeout 120 > $OUT/ctest.log 2>&1
echo "ctest at $(( $(date +%s) - T0 )) s" >> $OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*|Timeout" $OUT/ctest.log | head -40 >> $OUT/summary.txt
