#!/usr/bin/env bash
# build + GPU tests + python tests, bounded by the 600 s call
T0=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH; B=/root/b
nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/device.txt
pip install --no-index --no-deps --target /tmp/site .whl/*.whl > /dev/null 2>&1 || echo "cccl install failed" >> $OUT/device.txt
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUPRIM_INSTANTIATION_ROWS_PER_FILE=1 \
  -DGPUPRIM_BUILD_PYTHON=ON -DGPUPRIM_ENABLE_DIST=OFF > $OUT/build.log 2>&1
cmake --build $B -j 16 --target gpuprim_cuda_tests _core gpuprim-bench gpuprim_threads_cuda_tests gpuprim-cli -- -k 0 >> $OUT/build.log 2>&1
echo "build rc=$? at $(( $(date +%s) - T0 )) s" >> $OUT/device.txt
grep -E "error|FAILED" $OUT/build.log | head -40 >> $OUT/device.txt
st=$B/pystage; rm -rf $st; mkdir -p $st; cp -r python/gpuprim $st/; cp $B/python/_core*.so $st/gpuprim/ 2>>$OUT/device.txt
LEFT=$(( 570 - ($(date +%s) - T0) ))
echo "left for tests: $LEFT s" >> $OUT/device.txt
[ $LEFT -lt 30 ] && exit 0
(cd $B && timeout $LEFT ctest -j 8 -L cuda -LE dist --timeout 150 > $OUT/ctest.log 2>&1; T=$(find . -name gpuprim_threads_cuda_tests -type f | head -1); [ -n "$T" ] && timeout 120 $T > $OUT/threads.log 2>&1; echo "threads rc=$?" >> $OUT/threads.log) &
XD=""; python3 -c "import xdist" 2>/dev/null && XD="-n 6"
XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONPATH=$st:/tmp/site timeout $LEFT python3 -m pytest -q -rs $XD -p no:cacheprovider python/tests > $OUT/pytest.log 2>&1
echo "pytest rc=$?" >> $OUT/device.txt
wait
tail -30 $OUT/ctest.log >> $OUT/device.txt
tail -5 $OUT/pytest.log >> $OUT/device.txt
