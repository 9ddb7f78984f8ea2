/** What the memory child (memoryChild.ts) reports, in bytes. */
export interface MemoryChildReport {
	/** The body the node sent: `{"data":{"message":…,"context":…}}` */
	bodyBytes: number;
	baselineRss: number;
	/** Highest process.memoryUsage().rss seen by the 1 ms sampler */
	sampledPeakRss: number;
	/** The kernel's peak RSS (VmHWM) since the baseline, where it could be reset */
	kernelPeakRss?: number;
	/** Highest V8 heapUsed and external memory (Buffers) above the baseline, sampled */
	heapGrowth: number;
	externalGrowth: number;
	samples: number;
	ms: number;
}
