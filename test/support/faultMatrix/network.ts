/** The matrix's cases: connection, timeouts, TLS, stopping and retrying. */

import { MAY_HAVE_RUN, NEVER_RESENT, PATH } from './shared';
import type { MatrixCase } from './types';

const REFUSED =
	'Check that the service is reachable from the machine running n8n and that the webhook URL (host and port) is right. Nothing accepted the connection, so no run was created.';

export const networkCases: MatrixCase[] = [
	// ── Connection ──────────────────────────────────────────────────────────────────────────
	{
		id: 'refused-all',
		group: 'Connection',
		case: 'Connection refused (service down)',
		rule: 'a refused connection fails every item as "no run created"',
		scope: 'all',
		url: () => `http://127.0.0.1:{closedPort}${PATH}`,
		requests: 0,
		expect: {
			kind: 'error',
			code: 'connection_refused',
			message:
				'Could not connect to 127.0.0.1:{any}: connection refused: not sent again, as Retries When Not Accepted is 0',
			description: REFUSED,
		},
		spec: 'Silent; chosen: safe to retry (nothing was received).',
	},
	{
		id: 'refused-one',
		group: 'Connection',
		case: 'Connection refused for one item',
		rule: 'a refused connection fails only its item when retries are off',
		fault: { kind: 'refuse', times: 1 },
		requests: 0,
		expect: {
			kind: 'error',
			code: 'connection_refused',
			message:
				'Could not connect to {host}: connection refused: not sent again, as Retries When Not Accepted is 0',
			description: REFUSED,
		},
		spec: 'Silent; chosen: no retry unless Retries When Not Accepted is set.',
	},
	{
		id: 'refused-then-accepted',
		group: 'Connection',
		case: 'Connection refused once, Retries When Not Accepted = 2',
		rule: 'a refused connection is re-sent, freshly signed, and the item gets its run',
		parameters: { options: { retries: 2 } },
		fault: { kind: 'refuse', times: 1 },
		requests: 1,
		expect: { kind: 'sent' },
		note: 'Re-sent after 0.5 s with a new timestamp and signature; the service sees one request.',
		spec: 'Silent on retries; chosen: re-send only what provably was not accepted.',
	},
	{
		id: 'dns-not-found',
		group: 'Connection',
		case: 'Host does not resolve (`nowhere.invalid`)',
		rule: 'a host that does not resolve fails every item and names the host',
		scope: 'all',
		url: () => `http://nowhere.invalid:8080${PATH}`,
		requests: 0,
		expect: {
			kind: 'error',
			code: 'host_not_found',
			message: 'The host nowhere.invalid:8080 could not be found (DNS ENOTFOUND)',
			description:
				"Check the host name in the credential's webhook URL, and the DNS of the machine running n8n. The name is looked up before anything is sent, so no run was created.",
		},
		spec: 'Silent; chosen: not re-sent (nothing to gain until the name is fixed).',
	},
	{
		id: 'dns-temporary-failure',
		group: 'Connection',
		case: 'DNS lookup fails temporarily (EAI_AGAIN) for one item',
		rule: 'a temporary DNS failure fails only its item and names the code',
		fault: { kind: 'dns', code: 'EAI_AGAIN', times: 1 },
		requests: 0,
		expect: {
			kind: 'error',
			code: 'host_not_found',
			message: 'The host {host} could not be found (DNS EAI_AGAIN)',
			description: 'and the DNS of the machine running n8n',
		},
		spec: 'Silent; chosen: not re-sent.',
	},
	{
		id: 'n8n-refused-ssrf',
		group: 'Connection',
		case: "n8n's SSRF protection on (`N8N_SSRF_PROTECTION_ENABLED`), the webhook on a private address",
		rule: "n8n's own refusal to send fails every item with n8n's words and sends nothing",
		scope: 'all',
		ssrfProtection: true,
		parameters: { options: { retries: 2 } },
		requests: 0,
		expect: {
			kind: 'error',
			code: 'n8n_refused',
			message: 'The request was blocked because it resolves to a restricted IP address',
			description:
				'Nothing was sent, so no run was created: once this is fixed, run the item again.',
		},
		note: "n8n's description (the allowlist an admin can set) comes first. Never re-sent.",
		spec: 'Silent; chosen: n8n refuses before anything leaves it, so no run was created.',
	},
	{
		id: 'reset-before-body',
		group: 'Connection',
		case: 'Connection reset before the body was read',
		rule: 'a reset before the body arrives fails only its item as "may have run"',
		fault: { kind: 'resetBeforeBody' },
		requests: 0,
		expect: {
			kind: 'error',
			code: 'may_have_run',
			message:
				"The connection to {host} was closed before the service's answer was complete (ECONNRESET)",
			description: MAY_HAVE_RUN,
		},
		note: `The node cannot tell this from a reset after the body. ${NEVER_RESENT}`,
		spec: 'Silent; chosen: treat as "may have run", never re-send.',
	},
	{
		id: 'reset-after-body',
		group: 'Connection',
		case: 'Connection reset after the body was read, no answer',
		rule: 'a reset after the body arrived fails only its item as "may have run" and is not re-sent',
		parameters: { options: { retries: 2 } },
		fault: { kind: 'resetAfterBody' },
		requests: 1,
		expect: {
			kind: 'error',
			code: 'may_have_run',
			message:
				"The connection to {host} was closed before the service's answer was complete (ECONNRESET)",
			description: MAY_HAVE_RUN,
		},
		note: NEVER_RESENT,
		spec: 'Silent; chosen: "may have run" (the service got the whole request).',
	},
	{
		id: 'reset-mid-answer',
		group: 'Connection',
		case: '200 and part of the body, then the connection is reset',
		rule: 'an answer cut off midway fails only its item as "may have run"',
		fault: { kind: 'resetMidAnswer' },
		requests: 1,
		expect: {
			kind: 'error',
			code: 'may_have_run',
			message:
				"The connection to {host} was closed before the service's answer was complete ({any})",
			description: MAY_HAVE_RUN,
		},
		note: 'The code is ERR_BAD_RESPONSE on Node 20, ECONNRESET on Node 24. The 200 arrived, so the run probably exists.',
		spec: 'Silent; chosen: "may have run" (never re-sent).',
	},

	// ── Timeouts ────────────────────────────────────────────────────────────────────────────
	{
		id: 'slow-headers',
		group: 'Timeouts',
		case: 'Headers come after 1 s, Timeout = 300 ms',
		rule: 'an answer slower than the timeout fails only its item as "may have run"',
		parameters: { options: { timeout: 300 } },
		fault: { kind: 'slowHeaders', ms: 1000 },
		requests: 1,
		expect: {
			kind: 'error',
			code: 'may_have_run',
			message: 'The service did not answer within 300 ms',
			description: `${MAY_HAVE_RUN} Raise Options → Timeout if the service is slow.`,
		},
		spec: 'Silent; chosen: "may have run", never re-sent.',
	},
	{
		id: 'trickled-body',
		group: 'Timeouts',
		case: '200 at once, then the body one byte per 50 ms for 1.5 s, Timeout = 300 ms',
		rule: 'a body trickled past the timeout fails only its item at the timeout',
		parameters: { options: { timeout: 300 } },
		fault: { kind: 'trickle', everyMs: 50, totalMs: 1500 },
		requests: 1,
		expect: {
			kind: 'error',
			code: 'may_have_run',
			message: 'The service did not answer within 300 ms',
			description: `${MAY_HAVE_RUN} Raise Options → Timeout if the service is slow.`,
		},
		note: 'Timeout covers headers and body.',
		spec: 'Silent; chosen: Timeout bounds the whole answer.',
	},

	// ── TLS ─────────────────────────────────────────────────────────────────────────────────
	{
		id: 'tls-self-signed',
		group: 'TLS',
		case: 'Self-signed certificate',
		rule: 'a self-signed certificate fails every item and suggests Ignore SSL Issues',
		scope: 'all',
		tls: true,
		requests: 0,
		expect: {
			kind: 'error',
			code: 'tls_failed',
			message: 'The TLS certificate of {host} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)',
			description:
				'or turn on Options → Ignore SSL Issues (Insecure) if you accept the risk. The certificate is checked before the request is sent, so no run was created.',
		},
		spec: 'Silent; chosen: validate certificates unless told not to.',
	},
	{
		id: 'tls-self-signed-ignored',
		group: 'TLS',
		case: 'Self-signed certificate with Ignore SSL Issues',
		rule: 'with Ignore SSL Issues a self-signed certificate is accepted',
		tls: true,
		parameters: { options: { allowUnauthorizedCerts: true } },
		requests: 1,
		expect: { kind: 'sent' },
		spec: "Silent; chosen: the HTTP Request node's option.",
	},
	{
		id: 'tls-plain-http-to-tls',
		group: 'TLS',
		case: '`http://` to a service that speaks TLS',
		rule: 'plain HTTP to a TLS service fails every item as "may have run"',
		scope: 'all',
		tls: true,
		url: (base) => base.replace(/^https:/, 'http:') + PATH,
		requests: 0,
		expect: {
			kind: 'error',
			code: 'may_have_run',
			message:
				"The connection to {host} was closed before the service's answer was complete (ECONNRESET)",
			description: MAY_HAVE_RUN,
		},
		note: 'The node cannot tell why the service hung up.',
		spec: 'Silent.',
	},

	// ── Stopping and retrying ───────────────────────────────────────────────────────────────
	{
		id: 'stopped-mid-batch',
		group: 'Stopping and retrying',
		case: 'Workflow stopped while a batch (items 0 and 1, 2 per batch) is in flight',
		rule: 'stopping aborts the requests in flight and sends no further batch',
		custom: true,
		requests: 1,
		expect: { kind: 'error', message: 'The execution was cancelled manually', description: '' },
		note: 'The run ends as canceled at once: the requests in flight are aborted (items 0 and 1 were received, so their runs may exist), item 2 is never sent.',
		spec: 'Silent; chosen: as the n8n Stop button does for every node.',
	},
	{
		id: 'stopped-during-retry-wait',
		group: 'Stopping and retrying',
		case: 'Workflow stopped while waiting out `Retry-After: 30` for item 0 (Retries When Not Accepted = 2)',
		rule: 'stopping during a Retry-After wait ends at once and sends nothing more',
		custom: true,
		requests: 1,
		expect: { kind: 'error', message: 'The execution was cancelled manually', description: '' },
		note: 'The run ends as canceled at once; nothing more is sent (the 429 created no run).',
		spec: 'Silent.',
	},
	{
		id: 'retry-on-fail-keeps-accepted',
		group: 'Stopping and retrying',
		case: "n8n's Retry On Fail with a 500 for item 1 (Continue On Fail off)",
		rule: "n8n's Retry On Fail sends again only the items the service has not accepted",
		custom: true,
		requests: 2,
		expect: { kind: 'error', message: '', description: '' },
		note: "The service gets items 0, 1, 1, 2: item 0, accepted by the first attempt, is passed on from it and not sent again; item 1, whose 500 leaves its run uncertain, is sent again by n8n's retry, freshly signed (that is what the setting is for).",
		spec: '§6: each accepted request creates a run; chosen: a retry of the node never re-sends an accepted item.',
	},
];
