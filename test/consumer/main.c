/* Through <tally/tally.h>, compiled by gcc alone (C99): int32 row sums, a float matrix-vector
 * product and a float transpose of a matrix of small integers, so that every answer is exact;
 * then an argument error, to show the status and the message.
 * Exit status: 0 = everything matches, 1 = a mismatch or an error, 77 = no CUDA device. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include <tally/tally.h>

enum { M = 257, N = 1031 };

static int fail(const char* what) {
  fprintf(stderr, "consumer_c: %s: %s\n", what, tally_last_error());
  return 1;
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "consumer_c: no CUDA device\n");
    return 77;
  }
  static int32_t a[M * N];
  static float af[M * N], x[N], y[M], t[M * N];
  static int32_t sums[M];
  for (int i = 0; i < M * N; ++i) {
    a[i] = (int32_t)((i * 7919) % 2001 - 1000);
    af[i] = (float)((i * 31) % 17 - 8);
  }
  for (int j = 0; j < N; ++j) x[j] = (float)(j % 3 - 1);

  int32_t *d_a = NULL, *d_sums = NULL;
  float *d_af = NULL, *d_x = NULL, *d_y = NULL, *d_t = NULL;
  if (cudaMalloc((void**)&d_a, sizeof a) || cudaMalloc((void**)&d_sums, sizeof sums) || cudaMalloc((void**)&d_af, sizeof af) ||
      cudaMalloc((void**)&d_x, sizeof x) || cudaMalloc((void**)&d_y, sizeof y) || cudaMalloc((void**)&d_t, sizeof t)) {
    fprintf(stderr, "consumer_c: cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(d_af, af, sizeof af, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice);

  tally_reducer* reducer = NULL;
  if (tally_reducer_create(&reducer) != TALLY_SUCCESS) return fail("tally_reducer_create");
  if (tally_reducer_row_sum_i32(reducer, d_a, M, N, N, d_sums, NULL) != TALLY_SUCCESS) return fail("row sums");
  if (tally_matvec_f32(d_af, M, N, N, d_x, d_y, NULL) != TALLY_SUCCESS) return fail("matvec");
  if (tally_transpose_32(d_af, d_t, M, N, NULL) != TALLY_SUCCESS) return fail("transpose");
  cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost);
  cudaMemcpy(t, d_t, sizeof t, cudaMemcpyDeviceToHost);

  int ok = 1;
  for (int i = 0; i < M; ++i) {
    int64_t sum = 0;
    float dot = 0;
    for (int j = 0; j < N; ++j) {
      sum += a[i * N + j];
      dot += af[i * N + j] * x[j];
      ok &= t[j * M + i] == af[i * N + j];
    }
    ok &= sums[i] == (int32_t)sum && y[i] == dot;
  }
  /* A bad argument: a status, a message, nothing queued. */
  const tally_status bad = tally_row_max_f32(d_af, M, N, N - 1, d_y, NULL);
  ok &= bad == TALLY_ERROR_INVALID_ARGUMENT;
  printf("consumer_c: row sums, matvec and transpose of a %d x %d matrix: %s; an ld below N gives %s: %s\n", M, N,
         ok ? "ok" : "MISMATCH", tally_status_name(bad), tally_last_error());
  tally_reducer_destroy(reducer);
  cudaFree(d_a);
  cudaFree(d_sums);
  cudaFree(d_af);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_t);
  return ok ? 0 : 1;
}
