/**
 * The webhook URL an admin copies from the automation's Webhook details:
 * `{base_url}/webhooks/cloud/<automation_id>` (spec §2). Checked before anything is signed, so a
 * mistyped URL ends in a message that says what to change rather than in a failed request.
 */
import { credentialRefusal } from './triggerError';

export interface WebhookTarget {
	/** The URL requests go to, as the URL parser normalises it (e.g. host lower-cased), without a trailing slash. */
	url: string;
	automationId: string;
	/** `{base_url}`: the service, which all its automations share. */
	serviceUrl: string;
}

const PATH_SHAPE = /^(.*)\/webhooks\/cloud(?:\/(.*))?$/;
// Unreserved URL characters only: an id needing percent-encoding is not one the service issues.
const AUTOMATION_ID = /^[A-Za-z0-9._~-]+$/;
const WHERE = "Copy the webhook URL from the automation's Webhook details in the desktop app.";

function fail(problem: string): never {
	throw credentialRefusal(
		`${problem} Expected {base_url}/webhooks/cloud/<automation_id>. ${WHERE}`,
	);
}

export function parseWebhookUrl(raw: unknown): WebhookTarget {
	if (typeof raw !== 'string' || raw.trim() === '') fail('The webhook URL is empty.');
	const text = raw.trim();
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		fail(`The webhook URL "${text}" is not a valid URL.`);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		fail(`The webhook URL must start with https:// (or http://), not ${url.protocol}//.`);
	}
	if (url.username || url.password) {
		fail('The webhook URL must not contain a user name or password.');
	}
	if (url.search || text.includes('?')) {
		fail('The webhook URL must not have a query string (the part from "?"): remove it.');
	}
	if (url.hash || text.includes('#')) {
		fail('The webhook URL must not have a fragment (the part from "#"): remove it.');
	}
	const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
	const match = PATH_SHAPE.exec(path);
	if (!match) fail(`The webhook URL path "${url.pathname}" does not contain /webhooks/cloud/.`);
	const id = match[2] ?? '';
	if (id === '') fail('The webhook URL has no automation id after /webhooks/cloud/.');
	if (id.includes('/')) {
		fail(`The webhook URL continues after the automation id ("${id}"): remove the extra path.`);
	}
	if (!AUTOMATION_ID.test(id) || id === '.' || id === '..') {
		fail(
			`The automation id "${id}" contains characters an id cannot have (encoded or reserved characters).`,
		);
	}
	url.pathname = path;
	const webhookUrl = url.toString();
	return {
		url: webhookUrl,
		automationId: id,
		serviceUrl: webhookUrl.slice(0, webhookUrl.length - `/webhooks/cloud/${id}`.length),
	};
}
