set -x
source tools/device_env.sh
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/cmake.log 2>&1
cmake --build build-device -j 16 --target saga_gpu_tests saga-bench-spmv > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
mkdir -p /tmp/old && tar --exclude=./build-device --exclude=./build --exclude=./.git -cf - . | tar -C /tmp/old -xf -
cp old_spmv_binned.cu.tmp /tmp/old/sparse/cuda/spmv_binned.cu
(cd /tmp/old && cmake -S . -B build-old -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/cmake_old.log 2>&1 && cmake --build build-old -j 16 --target saga-bench-spmv > /tmp/build_old.log 2>&1) &
./build-device/tests/saga_gpu_tests -tc="*SpMV*,*spmv*,*dependent*,*graph*,*ycle*,*DCSR*,*implicit*" > $OUT/tests.txt 2>&1; tail -3 $OUT/tests.txt
wait
for i in 1 2; do
  ./build-device/benchmarks/saga-bench-spmv --only none --rmat-scale 0 --repeat 20 --solves 10 --json $OUT/new$i.json > /dev/null 2>&1
  /tmp/old/build-old/benchmarks/saga-bench-spmv --only none --rmat-scale 0 --repeat 20 --solves 10 --json $OUT/old$i.json > /dev/null 2>&1
done
./build-device/benchmarks/saga-bench-spmv --only "R-MAT" --no-solves --repeat 20 --json $OUT/rmat_new.json > /dev/null 2>&1
/tmp/old/build-old/benchmarks/saga-bench-spmv --only "R-MAT" --no-solves --repeat 20 --json $OUT/rmat_old.json > /dev/null 2>&1
ls $OUT
