// The guard for the official x402 client (@x402/core's x402Client, as
// @x402/fetch and @x402/axios use it). The core decides (checkPayment,
// through the wasm); this file only hooks the client:
//
// 1. its createPaymentPayload, on the instance, looks every accepted option
//    up in parallel (the wasm shares one request per endpoint and keeps
//    answers per Cache-Control) before the client selects one;
// 2. a policy (registerPolicy) orders the options by the core's rank
//    (preference, leaving out those the policy refuses while another is acceptable),
//    so the official selection picks the best acceptable one;
// 3. an onBeforePaymentCreation hook aborts with the core's one line when
//    the option selected is refused (all were), before anything is signed.
//    It looks the option up itself when step 1 did not run.
//
// Given options.httpClient, an x402HTTPClient made on the client (which
// wrapFetchWithPayment then uses as it is), its onPaymentRequired hook
// records the URL actually fetched, which the core compares with the
// resource declared.
//
// A verdict the 402 staples for an option (x402 v2's x402-verdict
// extension, read by the core: endpointsFromPaymentRequired) goes with its
// lookup, which takes it in place of a request when the core does.

/** The core's decision for `requirement` (`verdict`: the one stapled for it), with the agent's function asked under policy "function". */
async function decide(engine, settings, paymentRequired, requirement, fetched, verdict) {
  const check = await engine.checkPayment({
    baseUrl: settings.baseUrl,
    publicKey: settings.publicKey,
    rootKey: settings.rootKey,
    timeoutMs: settings.timeoutMs,
    strict: settings.strict,
    ...settings.log,
    chain: requirement.network,
    payTo: requirement.payTo,
    // v2 declares the resource once; v1 on each option.
    resourceUrl: paymentRequired?.resource?.url ?? requirement.resource,
    verdict,
  }, settings.name, fetched);
  try {
    settings.onVerdict?.(check.result, requirement);
  } catch {
    // Logging never decides a payment.
  }
  if (!settings.custom) return check;
  let answer;
  try {
    answer = await settings.policy(check.result, requirement);
  } catch (error) {
    answer = error;
  }
  // What the answer means is the core's rule (policyAnswered).
  return engine.policyAnswered(check, answer);
}

/** Guards `client` (an x402Client) with the wasm's `engine` (checkPayment, checkPolicy); returns it. */
export function guardWith(engine, client, options = {}) {
  const { policy, onVerdict, baseUrl, publicKey, rootKey, timeoutMs, strict, httpClient } = options;
  const { logKey, witnessKeys, witnessQuorum, transparency } = options;
  const custom = typeof policy === "function";
  // None: the core's default policy.
  const name = custom ? "function" : policy === undefined ? undefined : String(policy);
  const problem = custom ? undefined : engine.checkPolicy(name);
  if (problem) throw new TypeError(problem);
  const log = { logKey, witnessKeys, witnessQuorum, transparency };
  const settings = { policy, custom, name, onVerdict, baseUrl, publicKey, rootKey, timeoutMs, strict, log };
  /** Each accepted option's decision, by the option object the client selects among. */
  const decisions = new WeakMap();
  /** The URL fetched for each PaymentRequired, where an x402HTTPClient tells it. */
  const fetchedUrls = new WeakMap();
  httpClient?.onPaymentRequired(async ({ paymentRequired, requestUrl }) => {
    fetchedUrls.set(paymentRequired, requestUrl);
  });
  /** The verdicts each PaymentRequired staples, in the order of its accepted options. */
  const staples = new WeakMap();
  const stapledFor = (paymentRequired, requirement) => {
    const accepts = paymentRequired?.accepts;
    if (!Array.isArray(accepts) || !accepts.includes(requirement)) return undefined;
    if (!staples.has(paymentRequired)) {
      // As JSON text, which the core reads faster than an object property by property.
      let text;
      try {
        text = JSON.stringify(paymentRequired);
      } catch {
        // Not JSON (a BigInt inside): the core reads the object, and says why it cannot.
      }
      const { endpoints } = engine.endpointsFromPaymentRequired(text ?? paymentRequired);
      staples.set(paymentRequired, endpoints.map((endpoint) => endpoint.verdict));
    }
    return staples.get(paymentRequired)[accepts.indexOf(requirement)];
  };
  const decideFor = (paymentRequired, requirement) =>
    decide(engine, settings, paymentRequired, requirement, fetchedUrls.get(paymentRequired), stapledFor(paymentRequired, requirement));

  const create = client.createPaymentPayload;
  client.createPaymentPayload = async function (paymentRequired) {
    const accepts = Array.isArray(paymentRequired?.accepts) ? paymentRequired.accepts : [];
    const checks = await Promise.all(accepts.map((requirement) => decideFor(paymentRequired, requirement)));
    accepts.forEach((requirement, i) => decisions.set(requirement, checks[i]));
    return create.call(this, paymentRequired);
  };
  client.registerPolicy((version, requirements) => {
    // Options not looked up (a selection outside createPaymentPayload) keep
    // their order: the hook checks the one selected.
    if (!requirements.every((requirement) => decisions.has(requirement))) return requirements;
    // The core's order (rankOptions): by preference, those refused left
    // out while one paid remains.
    return engine.rankOptions(requirements.map((requirement) => decisions.get(requirement))).map((i) => requirements[i]);
  });
  client.onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
    const check = decisions.get(selectedRequirements) ?? await decideFor(paymentRequired, selectedRequirements);
    return check.pays ? undefined : { abort: true, reason: check.refusal };
  });
  return client;
}
