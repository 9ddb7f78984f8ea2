/**
 * Starting several processes at one moment: each first gets ready (loaded, warmed up, its
 * workflows built), and only when every one is ready is each told to go, in one tick, so none has
 * the service to itself before the others start. If one fails to get ready, none goes.
 */

export interface Party<T> {
	/** Settles when the party is ready to go at once. */
	ready: Promise<unknown>;
	/** Starts it; resolves when it is done. */
	go(): Promise<T>;
}

/**
 * Every party's result, each started only after all were ready, all in the same tick, right after
 * `beforeGo` (e.g. the service's run starting afresh).
 */
export async function startTogether<T>(
	parties: Array<Party<T>>,
	beforeGo: () => unknown = () => undefined,
): Promise<T[]> {
	await Promise.all(parties.map((party) => party.ready));
	await beforeGo();
	const done = parties.map((party) => party.go());
	return await Promise.all(done);
}
