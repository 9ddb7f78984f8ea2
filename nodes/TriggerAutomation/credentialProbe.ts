/**
 * The network half of the credential test: one unsigned HEAD request to the webhook URL, which
 * cannot start a run (only a correctly signed POST does), to show that the host resolves, accepts a
 * connection and, for https, completes TLS. Any HTTP answer passes; a redirect fails, because the
 * node never follows one. A failure says what the node itself would say.
 */
import type {
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import type { WebhookTarget } from '../../credentials/common/webhookUrl';
import { failureFromError } from './answer/noAnswer';
import type { RawResponse } from './answer/response';
import { failureFromAnswer } from './answer/serviceAnswer';

/** How long the test waits for an answer. */
const PROBE_TIMEOUT_MS = 10_000;

interface LegacyResponse {
	statusCode: number;
	statusMessage?: string;
	headers: IDataObject;
}

export async function probeWebhook(
	ctx: ICredentialTestFunctions,
	target: WebhookTarget,
): Promise<INodeCredentialTestResult> {
	const info = {
		url: target.url,
		automationId: target.automationId,
		bodyBytes: 0,
		timeoutMs: PROBE_TIMEOUT_MS,
	};
	let response: LegacyResponse;
	try {
		// The credential test's only request helper is n8n's legacy one, and it sends no credential.
		response = (await ctx.helpers.request({
			method: 'HEAD',
			uri: target.url,
			resolveWithFullResponse: true,
			simple: false,
			followRedirect: false,
			followAllRedirects: false,
			timeout: PROBE_TIMEOUT_MS,
		})) as LegacyResponse;
	} catch (error) {
		const failure = failureFromError(error, info);
		const { message, description } = failure;
		// n8n's own refusal (SSRF protection …) says in its description what the admin can do.
		const fix = failure.code === 'n8n_refused' && description ? `. ${description}` : '';
		return { status: 'Error', message: `${message}${fix}` };
	}
	const { statusCode } = response;
	if (statusCode >= 300 && statusCode < 400) {
		const answer: RawResponse = { ...response, body: Buffer.alloc(0) };
		const redirect = failureFromAnswer(answer, info);
		return {
			status: 'Error',
			message: `${redirect?.message ?? statusCode}. ${redirect?.description ?? ''}`.trim(),
		};
	}
	// n8n's editor shows "Connection tested successfully" for any OK; what a pass means is the
	// credential's notice.
	return { status: 'OK', message: 'Connection successful' };
}
