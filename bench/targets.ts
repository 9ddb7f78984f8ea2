/** The targets of issue 6, in one place. */
export const TARGETS = {
	/** node items/s ÷ raw client items/s, at every concurrency */
	throughputRatio: 0.9,
	/** computeSignature throughput ÷ bare createHmac throughput */
	signingRatio: 0.9,
	/** peak RSS growth ÷ body size */
	memoryMultiple: 3,
	/** ms to require the node and credential with n8n-workflow loaded */
	loadMs: 5,
};

export const CONCURRENCIES = [1, 8, 64];
export const ITEM_COUNT = 1000;
export const RUNS = 5;
/** Signing: alternating helper/bare blocks per body, and how long each block signs */
export const SIGNING_PAIRS = 15;
export const SIGNING_BLOCK_MS = 100;
/** Throughput runs profiled with --cpu-prof per side (plus a warm-up run) */
export const PROFILE_RUNS = 4;
