/**
 * Signatures computed outside this project, which the signer
 * (test/credentials/common/signature.test.ts) and the verifier (test/dev/verifySignature.test.ts)
 * must each meet: neither passes by agreeing with the other.
 * Each computed with:
 *   printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac test_secret
 */
export const T = 1_700_000_000_000;
export const SECRET = 'test_secret';

export const VECTORS = [
	{
		name: 'the spec example body',
		body: '{"data":{"message":"Hello from webhook"}}',
		hex: 'c97ed1a284f3c3282c2a2d0c0dca57f61951b5752b348256892c73bc421a75e0',
	},
	{
		name: 'a body with é, a BMP symbol and an astral emoji (UTF-8 bytes)',
		body: '{"data":{"message":"Café ☕ 🚀"}}',
		hex: '8358a51223be4cff6b9defe6aba2f1d48c634e84b85d3acf14c7c8e8780bd764',
	},
	{
		name: 'an empty body (the message is "<t>." alone)',
		body: '',
		hex: '8debca3e87e03ee851775e2f682fb0eb64105c999ef9017a9ec36473eebf39e8',
	},
	{
		name: 'a body with a trailing newline (the newline is signed)',
		body: '{"data":{"message":"x"}}\n',
		hex: '8fd7f3189af3ba5a1b50839a3263b48585eccda831d3741f3fb3f492d4247243',
	},
	{
		name: 'a 1 MiB body',
		body: `{"data":{"message":"${'a'.repeat(1024 * 1024)}"}}`,
		hex: 'b2e5b09b8aa247c98cbdd5a9abd40ce072e3ccb4b0fa7d5473750c5cf2e86e9f',
	},
];
