// Timing driver for a user-supplied checkout of x-io Technologies' Fusion (C). Our code; it
// only calls Fusion's public API. Built by time_vs_fusion.sh in /tmp, never in the repo.
// Reads the dump written by `FusionEval --dump` (7 doubles per sample: acc m/s², gyro rad/s,
// dt s; dt = 0 starts a recording), converts to Fusion's units (g, deg/s) outside the timed
// loop, then times FusionAhrsUpdateNoMagnetometer + FusionAhrsGetGravity per sample, storing
// the gravity like the Motus loop does. Prints the best of N runs in ns per sample.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "Fusion.h"

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: fusion_c DUMP [repeats]\n"); return 2; }
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    fseek(f, 0, SEEK_END); long bytes = ftell(f); fseek(f, 0, SEEK_SET);
    long n = bytes / (7 * sizeof(double));
    double *raw = malloc(bytes);
    if (fread(raw, sizeof(double), 7 * n, f) != (size_t)(7 * n)) { fprintf(stderr, "short read\n"); return 1; }
    fclose(f);
    FusionVector *acc = malloc(n * sizeof(FusionVector)), *gyr = malloc(n * sizeof(FusionVector)), *out = malloc(n * sizeof(FusionVector));
    float *dt = malloc(n * sizeof(float));
    for (long i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            acc[i].array[c] = (float)(raw[7 * i + c] / 9.80665);
            gyr[i].array[c] = (float)(raw[7 * i + 3 + c] * 57.29577951308232);
        }
        dt[i] = (float)raw[7 * i + 6];
    }
    double best = 1e30;
    for (int r = 0; r < repeats; r++) {
        FusionAhrs ahrs;
        double t0 = now();
        for (long i = 0; i < n; i++) {
            if (dt[i] == 0) { FusionAhrsInitialise(&ahrs); FusionAhrsSetSamplePeriod(&ahrs, 0.02f); }
            FusionAhrsUpdateNoMagnetometer(&ahrs, gyr[i], acc[i]);
            out[i] = FusionAhrsGetGravity(&ahrs);
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    double check = 0;
    for (long i = 0; i < n; i += 1000) check += out[i].axis.z;
    printf("{\"samples\": %ld, \"ns_per_sample\": %.1f, \"checksum\": %.3f}\n", n, best / n * 1e9, check);
    return 0;
}
