// src/stats: pure statistics (no I/O) behind PR verdicts and trend figures.
export * from './summary.js';
export * from './median-interval.js';
export * from './normal.js';
export * from './rank.js';
export * from './wilcoxon.js';
export * from './rank-sum-dist.js';
export * from './mann-whitney.js';
export * from './hodges-lehmann.js';
export * from './fdr.js';
export * from './fit.js';
export * from './designs.js';
export * from './rank-sum-permutation.js';
export * from './zscore.js';
export * from './power.js';
