/**
 * The fault and bad-input matrix's shape: a case says what is wrong, what the node must do about it,
 * how many requests of the affected item may reach the service, and what the interface document
 * says (§, as docs/reference.md lists them) or that it is silent and what was chosen. The cases are in the files beside this one, by group;
 * index.ts puts them together, render.ts renders their summary into docs/testing.md.
 *
 * Every case runs with three items, of which only the middle one (item 1) is affected — except
 * scope 'all' cases (credential problems), which affect every item.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FailureCode } from '../../../nodes/TriggerAutomation/answer/failure';
import type { ReceivedRequest } from '../receiver';
import type { Odd } from '../oddItems';

export type Group =
	| 'Message'
	| 'Context (JSON)'
	| 'Context: All Input Fields'
	| 'Context: Selected Fields'
	| 'Webhook URL'
	| 'Signing secret'
	| 'Options'
	| 'Connection'
	| 'Timeouts'
	| 'Answers of the service'
	| 'TLS'
	| 'Stopping and retrying';

/** Groups of bad inputs (parameters, items, credential); the others are faults. */
export const INPUT_GROUPS: Group[] = [
	'Message',
	'Context (JSON)',
	'Context: All Input Fields',
	'Context: Selected Fields',
	'Webhook URL',
	'Signing secret',
	'Options',
];

export interface AnswerSpec {
	status: number;
	/** Leave out the Date header Node's HTTP server adds by itself. */
	noDate?: boolean;
	/** Headers; `base` is the receiver's base URL (for a Location that points back at it). */
	headers?: (base: string) => Record<string, string>;
	body?: string;
}

/** How the receiver (or the local DNS) misbehaves for item 1's request. */
export type Fault =
	/** Item 1's attempts are answered in this order (the last one repeats). */
	| { kind: 'answers'; list: AnswerSpec[] }
	/** Item 1's connection is reset as soon as it is accepted, before anything is read. */
	| { kind: 'resetBeforeBody' }
	/** Item 1's body is read in full, then the connection is reset without an answer. */
	| { kind: 'resetAfterBody' }
	/** 200 and part of the body, then the connection is reset. */
	| { kind: 'resetMidAnswer' }
	/** The status line and headers come after `ms`. */
	| { kind: 'slowHeaders'; ms: number }
	/** 200 at once, then one byte every `everyMs` until `totalMs`. */
	| { kind: 'trickle'; everyMs: number; totalMs: number }
	/** Item 1's first `times` connections are refused (its host resolves to a dead loopback address). */
	| { kind: 'refuse'; times: number }
	/** Item 1's host lookups fail `times` times with `code`. */
	| { kind: 'dns'; code: 'ENOTFOUND' | 'EAI_AGAIN'; times: number }
	/**
	 * `status` with a text body of `bytes` bytes ("x" repeated), written as fast as the node reads
	 * it; the receiver records how much it wrote before the connection closed (`bytesSent`).
	 */
	| { kind: 'largeAnswer'; status: number; bytes: number };

export type Outcome =
	/** The item is sent and its output carries the answer. */
	| {
			kind: 'sent';
			/** Checks on the `data` of the body the service received for item 1. */
			check?: (data: { message: string; context?: IDataObject }, request: ReceivedRequest) => void;
			statusCode?: number;
			/** The `response` of item 1's output (default: the receiver's JSON answer). */
			response?: unknown;
			/** More fields item 1's output has, with these values. */
			json?: IDataObject;
	  }
	/**
	 * The item fails; `{host}` stands for host:port of the webhook URL, `{any}` for any text. `code`:
	 * the failure's code (docs/reference.md#errors); only the custom Stopping cases, where n8n
	 * cancels the execution, have none.
	 */
	| {
			kind: 'error';
			code?: FailureCode;
			message: string;
			description: string;
			httpCode?: string;
	  }
	/** n8n refuses to start the workflow (a parameter issue), so nothing runs. */
	| { kind: 'notStarted'; message: string };

export interface MatrixCase {
	id: string;
	group: Group;
	/** README: what is wrong. */
	case: string;
	/** The rule the tests prove: the test names. */
	rule: string;
	/** README: more about the behaviour. */
	note?: string;
	/** README: the spec section that decides it, or "Silent: …" with what was chosen. */
	spec: string;
	/** 'all': a credential or parameter problem that affects every item. */
	scope?: 'item' | 'all';
	/** Trigger Automation parameters, over `{ message: '={{ $json.m }}' }`. */
	parameters?: INodeParameters;
	/** Item 1's JSON, over `{ m: 'item 1', c: { n: 1 }, k: 'second' }`. */
	item1?: IDataObject;
	/** Item 1 passes a test-only node that gives it a value JSON cannot carry (in `json.ctx`). */
	odd?: Odd;
	/** The webhook URL, from the receiver's base URL; default `${base}/webhooks/cloud/auto-7`. */
	url?: (base: string) => string;
	/** The path requests must arrive at (default /webhooks/cloud/auto-7). */
	path?: string;
	secret?: string;
	/** The receiver speaks TLS with a self-signed certificate made at test time. */
	tls?: boolean;
	/** n8n's SSRF protection is on (N8N_SSRF_PROTECTION_ENABLED), which refuses 127.0.0.1. */
	ssrfProtection?: boolean;
	fault?: Fault;
	/** How many requests of each affected item reach the service. */
	requests: number;
	expect: Outcome;
	/** Run by a dedicated test instead of the generic three-mode one. */
	custom?: boolean;
}
