/**
 * The service's answer → what the next node sees. The spec leaves responses open, so nothing here
 * depends on their shape: JSON is parsed, anything else is passed on as text.
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * The most of an answer's body the node keeps: 1 MiB (a run's answer is usually under 1 KB). Past
 * it the node stops reading (request/attempt.ts, `readAnswerBody`).
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface RawResponse {
	statusCode: number;
	statusMessage?: string;
	headers: IDataObject;
	/** At most MAX_ANSWER_BYTES (request/attempt.ts, `readAnswerBody`). */
	body: Buffer;
	/** The body was longer than that: `body` is its beginning, and the node stopped reading there. */
	cut?: boolean;
}

export function headerValue(headers: IDataObject, name: string): string | undefined {
	const wanted = name.toLowerCase();
	// Node.js gives header names in lower case; other spellings are looked for only when it is not.
	let value = headers[wanted];
	if (value === undefined) {
		value = Object.entries(headers).find(([key]) => key.toLowerCase() === wanted)?.[1];
	}
	if (value === undefined) return undefined;
	return Array.isArray(value) ? String(value[0]) : String(value);
}

const JSON_TYPE = /[/+]json\s*(;|$)/i;

/** Parsed JSON when the body is JSON, else the text (empty string for an empty body). */
export function parseResponseBody(response: RawResponse): unknown {
	const text = response.body.toString('utf8');
	const contentType = headerValue(response.headers, 'content-type') ?? '';
	const looksJson = JSON_TYPE.test(contentType) || /^\s*[[{]/.test(text);
	if (looksJson && text.trim() !== '') {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			// A body that claims JSON but is not: hand over the text rather than fail a created run.
		}
	}
	return text;
}

export interface SentRequest {
	automationId: string;
	/** Known when the credential signed the options n8n passed it (n8n passes the same object). */
	signatureTimestamp?: number;
}

export function outputJson(
	sent: SentRequest,
	response: RawResponse,
	includeHeaders: boolean,
): IDataObject {
	const json: IDataObject = { automationId: sent.automationId };
	// An accepted request is never reported as failed for want of its timestamp.
	if (sent.signatureTimestamp !== undefined) {
		json.signedAt = new Date(sent.signatureTimestamp).toISOString();
	}
	json.statusCode = response.statusCode;
	if (response.cut) {
		// Accepted all the same: the run exists. The beginning of a longer body parses as nothing.
		json.response = response.body.toString('utf8');
		json.responseTruncated = `The answer's body is longer than ${MAX_ANSWER_BYTES} bytes (1 MiB): response holds its first ${MAX_ANSWER_BYTES} bytes as text, and the node did not read the rest.`;
	} else {
		json.response = parseResponseBody(response) as IDataObject;
	}
	if (includeHeaders) {
		json.statusMessage = response.statusMessage ?? '';
		json.headers = response.headers;
	}
	return json;
}
