#!/usr/bin/env bash
# warm machine: topk 2^27 test, peer suites on CuPy, python per-call profile + bench
export PATH=/usr/local/cuda/bin:$PATH; B=/root/b; st=$B/pystage
T0=$(date +%s)
timeout 60 $B/tests/gpuprim_cuda_tests '--gtest_filter=*topk*large*:*topk*ties*' > $OUT/topk.log 2>&1; echo "topk rc=$?" > $OUT/call2.txt
rm -rf $st/gpuprim/*.py; cp python/gpuprim/*.py $st/gpuprim/
export PYTHONPATH=$st:/tmp/site
timeout 120 python3 -m pytest -q -rs -n 8 -p no:cacheprovider python/tests/test_gpu_numpy_vocabulary.py python/tests/test_gpu.py python/tests/test_peer_mode.py > $OUT/gpu-vocab.log 2>&1; echo "vocab rc=$?" >> $OUT/call2.txt; tail -3 $OUT/gpu-vocab.log >> $OUT/call2.txt
GPUPRIM_PEER_TIMEOUT=150 scripts/test-python-peers-gpu.sh > $OUT/peers-gpu.log 2>&1; grep -A8 "gpuprim peer suites" $OUT/peers-gpu.log >> $OUT/call2.txt
echo "peers at $(( $(date +%s) - T0 )) s" >> $OUT/call2.txt
timeout 80 python3 .dev/prof.py > $OUT/prof.txt 2>&1
echo "prof rc=$? at $(( $(date +%s) - T0 )) s" >> $OUT/call2.txt
LEFT=$(( 580 - ($(date +%s) - T0) ))
timeout $LEFT python3 -m gpuprim.bench --large 26 --runs 7 --json $OUT/pybench.json > $OUT/pybench.txt 2>&1
echo "pybench rc=$? at $(( $(date +%s) - T0 )) s" >> $OUT/call2.txt
tail -12 $OUT/topk.log >> $OUT/call2.txt
