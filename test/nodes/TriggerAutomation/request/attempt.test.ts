import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';

import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { MAX_ANSWER_BYTES } from '../../../../nodes/TriggerAutomation/answer/response';
import { deadline, readAnswerBody } from '../../../../nodes/TriggerAutomation/request/attempt';

// A deadline reads only the execution's cancel signal from the node's context.
const nodeContext = (cancel?: AbortSignal) =>
	({ getExecutionCancelSignal: () => cancel }) as unknown as IExecuteFunctions;

describe('Options → Timeout: the deadline a request gets', () => {
	it('fires once the Timeout has passed, and says it was the timer', async () => {
		const started = Date.now();
		const { ctx, timer } = deadline(nodeContext(new AbortController().signal), 50);
		const requestSignal = ctx.getExecutionCancelSignal()!;
		expect(requestSignal.aborted).toBe(false);
		await new Promise((settle) => requestSignal.addEventListener('abort', settle));
		expect(Date.now() - started).toBeGreaterThanOrEqual(45);
		expect(timer.aborted).toBe(true);
	});

	it("Stop aborts the request's signal, not the timer", () => {
		const stop = new AbortController();
		const requests = Array.from({ length: 40 }, () => deadline(nodeContext(stop.signal), 30_000));
		stop.abort();
		expect(requests.every(({ ctx }) => ctx.getExecutionCancelSignal()!.aborted)).toBe(true);
		expect(requests.some(({ timer }) => timer.aborted)).toBe(false);
	});

	it("leaves no listener on the execution's signal, however many requests it had", () => {
		const stop = new AbortController();
		for (let n = 0; n < 40; n++) deadline(nodeContext(stop.signal), 30_000);
		expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
	});

	it('a request that starts after Stop gets a signal already aborted', () => {
		const stop = new AbortController();
		stop.abort();
		const { ctx } = deadline(nodeContext(stop.signal), 30_000);
		expect(ctx.getExecutionCancelSignal()!.aborted).toBe(true);
	});

	it("the rest of the context is n8n's own", () => {
		const context = { ...nodeContext(), getNode: () => ({ name: 'Trigger Automation' }) };
		const { ctx } = deadline(context as unknown as IExecuteFunctions, 1_000);
		expect(ctx.getNode().name).toBe('Trigger Automation');
	});
});

const KIB = 1024;

/** An endless stream of 64 KiB chunks, counting those read from it. */
function endless() {
	const chunk = Buffer.alloc(64 * KIB, 'x');
	const stream = Object.assign(
		new Readable({
			read() {
				stream.pulled++;
				this.push(chunk);
			},
		}),
		{ pulled: 0 },
	);
	return stream;
}

describe('an answer body is kept up to 1 MiB', () => {
	it('a body under the limit is kept whole, from a stream or as read already', async () => {
		const body = Buffer.from('{"runId":"r-1"}');
		expect(await readAnswerBody(Readable.from([body.subarray(0, 5), body.subarray(5)]))).toEqual({
			body,
			cut: false,
		});
		expect(await readAnswerBody(body)).toEqual({ body, cut: false });
		expect(await readAnswerBody(Readable.from(['text ', 'chunks']))).toEqual({
			body: Buffer.from('text chunks'),
			cut: false,
		});
		expect(await readAnswerBody(undefined)).toEqual({ body: Buffer.alloc(0), cut: false });
	});

	it('exactly the limit is not cut', async () => {
		const { body, cut } = await readAnswerBody(Readable.from([Buffer.alloc(MAX_ANSWER_BYTES)]));
		expect([body.length, cut]).toEqual([MAX_ANSWER_BYTES, false]);
	});

	it('past the limit it keeps the first 1 MiB, stops reading and closes the stream', async () => {
		const stream = endless();
		const { body, cut } = await readAnswerBody(stream);
		expect(cut).toBe(true);
		expect(body.length).toBe(MAX_ANSWER_BYTES);
		expect(body.every((byte) => byte === 0x78)).toBe(true);
		expect(stream.destroyed).toBe(true);
		// 16 chunks make 1 MiB; the stream reads a few ahead (its highWaterMark), no more.
		expect(stream.pulled).toBeLessThan(16 + 8);
	});

	it('a body already read past the limit is cut the same way', async () => {
		const { body, cut } = await readAnswerBody(Buffer.alloc(MAX_ANSWER_BYTES + 1, 'y'));
		expect([body.length, cut]).toEqual([MAX_ANSWER_BYTES, true]);
	});

	it('a stream that fails midway throws its error, and is closed', async () => {
		const failure = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
		const stream = new Readable({
			read() {
				this.push(Buffer.from('{"runId":'));
				this.destroy(failure);
			},
		});
		await expect(readAnswerBody(stream)).rejects.toBe(failure);
		expect(stream.destroyed).toBe(true);
	});
});
