/** A workspace's integrations: /account/workspaces/{id}/integrations. */
export const integrations = {
  title: 'Integrations',
  intro:
    'Stripe and Shopify tell linkpix of each sale: it is recorded as a "sale" conversion of the visit that brought the buyer, with its amount and currency. Give the sender the endpoint address below.',
  back: 'Back to the workspace',
  types: { stripe: 'Stripe', shopify: 'Shopify' } as Record<string, string>,
  caption: "The workspace's integrations",
  columns: { type: 'Sender', endpoint: 'Endpoint URL', created: 'Added' },
  empty: 'No integrations yet.',
  remove: 'Remove',
  removeNamed: (type: string, id: number) => `Remove the ${type} integration ${id}`,
  removed: 'The integration was removed: its endpoint no longer takes events.',
  add: 'Add an integration',
  type: 'Sender',
  secret: 'Signing secret',
  secretHint:
    "Stripe: the endpoint's signing secret (whsec_…), shown once you add the endpoint URL in Stripe. Shopify: the app's client secret, or the one shown under Settings → Notifications → Webhooks.",
  create: 'Add',
  made: 'Endpoint URL',
  madeWarning:
    'Give this address to the sender: in Stripe, a webhook endpoint listening to checkout.session.completed and payment_intent.succeeded; in Shopify, a webhook on order creation, in JSON.',
  setUp:
    "The click id arrives on your site as lpx_cid: pass it to Stripe as the Checkout Session's client_reference_id or as metadata lpx_cid, and in Shopify as a cart attribute named lpx_cid (or keep it in the landing page's address). A click converts once: a second purchase from the same visit records nothing more.",
};
