/**
 * The re-send policy (sending/resendPolicy.ts) in words, for the editor's help (description.ts)
 * and the docs' tables: made from its constants, never stated apart from them. Descriptions apart
 * from execution; test/repository/resendTable.test.ts holds the help and the docs to these words.
 */
import { MAX_WAIT_MS } from './limits';
import type { RESENT } from './sending/resendPolicy';
import { FIRST_BACKOFF_MS, MAX_DOUBLINGS } from './sending/resendPolicy';

const seconds = (ms: number) => `${ms / 1000} s`;
const BACKOFF = `a backoff of ${seconds(FIRST_BACKOFF_MS)} doubling up to ${seconds(FIRST_BACKOFF_MS * 2 ** MAX_DOUBLINGS)}`;

type Resent = (typeof RESENT)[number];

/** How long each answer RESENT names waits before it is sent again. */
const WAITS: Record<Resent['short'], string> = {
	'429': `its \`Retry-After\`, or without one ${BACKOFF}`,
	'503 with Retry-After': 'its `Retry-After`',
	'connection refused': `${BACKOFF} (a refused connection has no \`Retry-After\`)`,
};

/** How a row of RESENT is re-sent, as behind-a-proxy.md's table says it. */
export function resentHow({ short }: Resent): string {
	return `Waits ${WAITS[short]}, then sends the item again, freshly signed, up to Options → Retries When Not Accepted`;
}

/** The policy in words (Markdown): reference.md says each, the editor's help each but `never`. */
export const RESEND_POLICY = {
	what: `Sent again, freshly signed, before new items: only a ${Object.keys(WAITS)
		.map((short) => short.replace('Retry-After', '`Retry-After`'))
		.join(', a ')}, as each says no run was created.`,
	after: `It waits its \`Retry-After\`, or without one ${BACKOFF}.`,
	giveUp: `A \`Retry-After\` over ${seconds(MAX_WAIT_MS)} fails the item at once (\`rate_limited\`): the node waits no longer.`,
	costs:
		"A turn-away costs one of Retries When Not Accepted only when no other request was accepted meanwhile (since the item's previous attempt, or since it began): under Adaptive, no request of the n8n process to that service (each queue-mode worker counts its own); under Fixed Batches and One at a Time, none of the execution. At `Retry-After: 1`, a busy spell costs about one a second.",
	never:
		'What may have created a run (a 5xx, a timeout, a connection closed mid-answer) is never sent again by the node.',
} as const;

/** The same words as the editor shows them: plain text. */
export const plain = (markdown: string) => markdown.replace(/`|\*\*/g, '');
