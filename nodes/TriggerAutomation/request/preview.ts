/**
 * Options → Preview Only (Don't Send): what one attempt of this item would send, signed by the same
 * code the credential signs with, but never sent, so no run is created. The signature's `v1` is
 * shortened to its first and last hex digits: enough to compare with a signature recomputed from
 * `timestamp` and `body` (docs/reference.md, Recompute a signature with openssl), useless to
 * replay. The secret is never in it.
 */
import { createHash } from 'node:crypto';

import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { signRequest } from '../../../credentials/common/signRequest';
import {
	SIGNATURE_HEADER,
	SIGNATURE_SCHEME,
	readSignatureHeader,
} from '../../../credentials/common/signature';
import type { Failure } from '../answer/failure';
import { TriggerError } from '../answer/failure';
import { failureFromError } from '../answer/noAnswer';
import { buildRequest, requestInfo } from './attempt';
import type { Execution } from './settings';

/** Hex digits of `v1` kept at each end. */
const SHOWN_DIGITS = 4;

/** `t=<t>,v1=<first>…<last>` */
function shortened(timestamp: number, signature: string): string {
	const v1 = `${signature.slice(0, SHOWN_DIGITS)}…${signature.slice(-SHOWN_DIGITS)}`;
	return `t=${timestamp},${SIGNATURE_SCHEME}=${v1}`;
}

/** Signs the request in place as the credential does; why it refuses, if it does. */
function sign(
	execution: Execution,
	request: IHttpRequestOptions,
	body: Buffer,
): Failure | undefined {
	try {
		signRequest(execution.target.credential.data ?? {}, request);
		return undefined;
	} catch (error) {
		return failureFromError(error, requestInfo(execution, body));
	}
}

export function previewItem(execution: Execution, body: Buffer): IDataObject {
	const request = buildRequest(execution, body);
	// The credential would refuse this request when sending too: the same message, nothing sent.
	const refusal = sign(execution, request, body);
	if (refusal) throw new TriggerError(refusal);
	const headers = { ...(request.headers as Record<string, string>) };
	const { timestamp, signature } = readSignatureHeader(headers[SIGNATURE_HEADER]);
	headers[SIGNATURE_HEADER] = shortened(timestamp, signature);
	const text = body.toString('utf8');
	return {
		preview: true,
		automationId: execution.target.automationId,
		method: request.method,
		url: execution.target.url,
		headers,
		body: text,
		bodyBytes: body.length,
		bodySha256: createHash('sha256').update(body).digest('hex'),
		timestamp,
		signedAt: new Date(timestamp).toISOString(),
		signingInput: `${timestamp}.<body>`,
		note: "Not sent: no run was created. The signature covers the exact text of 'body' (UTF-8), after the timestamp and a full stop; its v1 is shortened here.",
	};
}
