/**
 * The answer's body, kept up to MAX_ANSWER_BYTES. n8n's request helper hands the body over as the
 * HTTP client's stream (`encoding: 'stream'`), so the node reads it a chunk at a time and, past the
 * limit, stops reading and closes the connection: a faulty or hostile answer of hundreds of MB
 * costs this process about the limit, not the answer's size (figures: docs/reference.md, Output).
 */

import { MAX_ANSWER_BYTES } from '../answer/response';

export interface AnswerBody {
	/** At most MAX_ANSWER_BYTES: the whole body, or its first MAX_ANSWER_BYTES when `cut`. */
	body: Buffer;
	/** The body was longer: the node stopped reading it there. */
	cut: boolean;
}

/** What the HTTP client's response stream offers, without depending on Node's stream types. */
interface BodyStream extends AsyncIterable<unknown> {
	destroy(error?: Error): unknown;
}

function isStream(value: unknown): value is BodyStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		Symbol.asyncIterator in value &&
		typeof (value as { destroy?: unknown }).destroy === 'function'
	);
}

function asBuffer(chunk: unknown): Buffer {
	if (Buffer.isBuffer(chunk)) return chunk;
	if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
	if (chunk instanceof ArrayBuffer) return Buffer.from(chunk);
	return Buffer.from(typeof chunk === 'string' ? chunk : '');
}

/** Buffers up to the limit; the rest marks the body cut. */
function bounded(body: Buffer): AnswerBody {
	return body.length > MAX_ANSWER_BYTES
		? { body: Buffer.from(body.subarray(0, MAX_ANSWER_BYTES)), cut: true }
		: { body, cut: false };
}

/**
 * Reads `raw` (the stream n8n returns, or a body already read) up to the limit. A stream that
 * fails midway (the connection reset, the request aborted at the Timeout) throws its error.
 */
export async function readAnswerBody(raw: unknown): Promise<AnswerBody> {
	if (!isStream(raw)) return bounded(asBuffer(raw));
	const chunks: Buffer[] = [];
	let length = 0;
	let cut = false;
	try {
		for await (const chunk of raw) {
			const buffer = asBuffer(chunk);
			const room = MAX_ANSWER_BYTES - length;
			if (buffer.length > room) {
				chunks.push(buffer.subarray(0, room));
				length += room;
				cut = true;
				break;
			}
			chunks.push(buffer);
			length += buffer.length;
		}
	} finally {
		// Leaving the loop early closes the stream already; an error leaves it to be closed here.
		raw.destroy();
	}
	return { body: Buffer.concat(chunks, length), cut };
}
