/** What examples/order-to-automation.json sends for its one order: the run the service records. */
export const ORDER_RUN = {
	message: 'Check order 1042 for Ada Lovelace and email a confirmation to ada@example.com.',
	context: {
		orderId: 1042,
		lines: [
			{ sku: 'TEA-01', qty: 2 },
			{ sku: 'CUP-07', qty: 1 },
		],
	},
};
