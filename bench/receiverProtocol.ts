/** Messages between the bench and its receiver process. */
import { createHash } from 'node:crypto';

/** Order-independent fingerprint of a set of bodies: sum of a hash of each, modulo 2^32. */
export function addFingerprint(sum: number, body: Buffer): number {
	return (sum + createHash('md5').update(body).digest().readUInt32LE(0)) % 2 ** 32;
}

export interface ReceiverCounts {
	accepted: number;
	rejected: number;
	bodyBytes: number;
	/** addFingerprint over every body received */
	fingerprint: number;
	/** TCP connections opened to the receiver. */
	connections: number;
}

export type ReceiverRequest = { type: 'take'; id: number } | { type: 'stop' };

export type ReceiverReply =
	| { type: 'ready'; url: string }
	| { type: 'counts'; id: number; counts: ReceiverCounts };
