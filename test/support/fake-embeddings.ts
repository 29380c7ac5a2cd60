/**
 * The fake embedding model of the fake OpenAI server (test/support/fake-llm.ts `POST /v1/embeddings`) and
 * of the retrieval benchmark (bench/knowledge-retrieval.ts): deterministic vectors that carry some
 * meaning, so retrieval by vectors behaves like a small real model, better than words on paraphrases and
 * worse on rare exact terms, without a network or weights.
 *
 * A text's vector is a bag of concepts in `FAKE_EMBEDDING_DIMENSIONS` dimensions, L2-normalized: each
 * concept (synonym group) has a dimension of its own, and every other feature is hashed (feature hashing,
 * Weinberger et al. 2009) onto the dimensions left. Concepts used to be hashed too: with some 120 concepts
 * in 384 dimensions about 18 pairs of them shared a dimension, and about half of those with opposite
 * signs, so a text about both cancelled them out (a question on "several" and "inside" found nothing
 * about "numerous" and "indoors"); a real model does not confuse unrelated concepts that way.
 * - words are lower-cased, stop words dropped, and stemmed crudely (plural, -ing, -ed, -ly, -ment, -tion…);
 * - each stem is mapped to its concept by `SYNONYMS`, a fixed table of everyday synonym groups (what any
 *   embedding model learns: "refund" and "money back", "cancel" and "call off"), weight 1;
 * - each stem's character trigrams add weight 0.25 (morphology and typos come closer);
 * - stems not in the table stand for themselves, like rare names in a real model, but get weight 0.6 (a
 *   small model knows rare tokens less well than common words).
 * The table is general, written before and apart from the benchmark's questions; the benchmark draws its
 * paraphrases from it (it is the "knowledge" this model has), which is the favourable case for vectors: a
 * real model's figures are printed beside when one is configured.
 */

/** Dimensions of the fake model's vectors (as many as all-MiniLM-L6-v2's). */
export const FAKE_EMBEDDING_DIMENSIONS = 384;

/** Synonym groups: every word of a group maps to the group's first word (its concept). */
export const SYNONYMS: string[][] = [
  ['refund', 'reimburse', 'repay', 'moneyback', 'reimbursement'],
  ['return', 'send back', 'give back'],
  ['cancel', 'call off', 'terminate', 'abort', 'revoke'],
  ['price', 'cost', 'fee', 'charge', 'rate', 'tariff'],
  ['cheap', 'inexpensive', 'affordable', 'budget', 'low-cost'],
  ['expensive', 'costly', 'pricey', 'dear'],
  ['buy', 'purchase', 'order', 'acquire'],
  ['deliver', 'ship', 'dispatch', 'send', 'shipping', 'delivery', 'courier'],
  ['fast', 'quick', 'rapid', 'speedy', 'express', 'swift'],
  ['slow', 'sluggish', 'delayed', 'late'],
  ['open', 'opening', 'hours', 'schedule', 'timetable'],
  ['close', 'shut', 'closed', 'closing'],
  ['help', 'assist', 'support', 'aid'],
  ['problem', 'issue', 'trouble', 'fault', 'defect', 'malfunction'],
  ['broken', 'damaged', 'faulty', 'cracked', 'defective'],
  ['repair', 'fix', 'mend', 'service', 'maintenance'],
  ['replace', 'swap', 'exchange', 'substitute'],
  ['warranty', 'guarantee', 'coverage', 'cover', 'covered'],
  ['pay', 'payment', 'paying', 'settle'],
  ['card', 'credit', 'debit', 'visa', 'mastercard'],
  ['invoice', 'bill', 'receipt', 'statement'],
  ['account', 'profile', 'login', 'signin'],
  ['password', 'passcode', 'pin', 'credentials'],
  ['reset', 'recover', 'restore'],
  ['contact', 'reach', 'call', 'phone', 'telephone', 'ring'],
  ['email', 'mail', 'message', 'write'],
  ['appointment', 'booking', 'reservation', 'slot', 'book', 'reserve'],
  ['change', 'modify', 'alter', 'adjust', 'amend', 'move', 'reschedule'],
  ['start', 'begin', 'commence', 'launch'],
  ['end', 'finish', 'stop', 'conclude'],
  ['big', 'large', 'huge', 'wide'],
  ['small', 'little', 'tiny', 'compact'],
  ['child', 'kid', 'children', 'kids', 'youngster', 'junior'],
  ['adult', 'grown-up', 'grownup'],
  ['elderly', 'senior', 'pensioner', 'retiree'],
  ['student', 'pupil', 'learner'],
  ['discount', 'reduction', 'rebate', 'offer', 'deal', 'promotion', 'coupon', 'voucher'],
  ['free', 'complimentary', 'gratis', 'no charge'],
  ['car', 'vehicle', 'automobile', 'auto'],
  ['park', 'parking', 'garage'],
  ['pet', 'dog', 'cat', 'animal'],
  ['food', 'meal', 'eat', 'dining', 'snack', 'lunch', 'dinner', 'breakfast'],
  ['drink', 'beverage', 'coffee', 'tea'],
  ['doctor', 'physician', 'clinician', 'gp'],
  ['medicine', 'medication', 'drug', 'prescription', 'pill'],
  ['sick', 'ill', 'unwell', 'poorly'],
  ['pain', 'ache', 'hurt', 'sore'],
  ['tooth', 'teeth', 'dental', 'dentist'],
  ['eye', 'vision', 'sight', 'optician'],
  ['insurance', 'insurer', 'policy', 'insured'],
  ['weekend', 'saturday', 'sunday'],
  ['holiday', 'vacation', 'bank holiday', 'festive'],
  ['morning', 'am', 'forenoon'],
  ['evening', 'night', 'pm', 'after work'],
  ['home', 'house', 'residence', 'flat', 'apartment'],
  ['rent', 'lease', 'hire', 'rental'],
  ['key', 'keys', 'fob'],
  ['lost', 'misplaced', 'missing', 'forgot'],
  ['stolen', 'theft', 'robbed'],
  ['noise', 'noisy', 'loud', 'sound'],
  ['clean', 'cleaning', 'wash', 'tidy'],
  ['water', 'leak', 'plumbing', 'pipe'],
  ['heat', 'heating', 'warm', 'boiler', 'radiator'],
  ['cold', 'cool', 'chilly', 'air conditioning'],
  ['power', 'electricity', 'electric', 'outage', 'blackout'],
  ['internet', 'wifi', 'broadband', 'connection', 'network'],
  ['slowdown', 'lag', 'latency'],
  ['device', 'gadget', 'equipment', 'appliance'],
  ['phone', 'mobile', 'smartphone', 'cellphone'],
  ['screen', 'display', 'monitor'],
  ['battery', 'charge', 'charging', 'charger'],
  ['size', 'fit', 'measurement', 'dimensions'],
  ['colour', 'color', 'shade', 'hue'],
  ['wear', 'clothes', 'clothing', 'garment', 'outfit'],
  ['shoe', 'shoes', 'boots', 'trainers', 'sneakers', 'footwear'],
  ['gift', 'present', 'giftcard'],
  ['wrap', 'wrapping', 'packaging', 'package', 'parcel', 'box'],
  ['track', 'tracking', 'trace', 'follow', 'status', 'where'],
  ['wait', 'waiting', 'queue', 'line'],
  ['staff', 'employee', 'worker', 'team', 'personnel'],
  ['manager', 'supervisor', 'boss'],
  ['complain', 'complaint', 'grievance', 'dissatisfied', 'unhappy'],
  ['feedback', 'review', 'opinion', 'rating'],
  ['safe', 'secure', 'safety', 'security', 'protected'],
  ['private', 'privacy', 'confidential', 'personal data', 'gdpr'],
  ['delete', 'erase', 'remove', 'wipe'],
  ['join', 'sign up', 'register', 'enrol', 'enroll', 'membership', 'member', 'subscribe', 'subscription'],
  ['leave', 'quit', 'unsubscribe', 'opt out'],
  ['learn', 'course', 'class', 'lesson', 'training', 'tuition', 'workshop'],
  ['exam', 'test', 'assessment', 'quiz'],
  ['travel', 'trip', 'journey', 'tour'],
  ['flight', 'plane', 'airline', 'fly'],
  ['train', 'rail', 'railway'],
  ['bus', 'coach', 'shuttle'],
  ['bike', 'bicycle', 'cycle', 'cycling', 'ebike'],
  ['hotel', 'accommodation', 'lodging', 'room', 'stay'],
  ['luggage', 'baggage', 'bag', 'suitcase'],
  ['ticket', 'pass', 'fare'],
  ['document', 'paperwork', 'form', 'certificate'],
  ['identity', 'id', 'passport', 'licence', 'license'],
  ['age', 'old', 'years'],
  ['allow', 'permit', 'permitted', 'allowed', 'can', 'may'],
  ['forbid', 'prohibit', 'banned', 'not allowed', 'forbidden'],
  ['need', 'require', 'must', 'necessary', 'mandatory'],
  ['optional', 'voluntary'],
  ['near', 'nearby', 'close to', 'local', 'around'],
  ['far', 'distant', 'remote'],
  ['location', 'address', 'place', 'branch', 'store', 'shop', 'showroom', 'office'],
  ['city', 'town', 'downtown', 'centre', 'center'],
  ['day', 'daily', 'days'],
  ['week', 'weekly', 'weeks'],
  ['month', 'monthly', 'months'],
  ['year', 'yearly', 'annual', 'annually'],
  ['many', 'several', 'multiple', 'numerous'],
  ['number', 'amount', 'quantity', 'how many', 'count'],
  ['money', 'cash', 'funds', 'euros', 'dollars', 'pounds'],
  ['loan', 'finance', 'financing', 'credit plan', 'instalment', 'installment'],
  ['interest', 'apr'],
  ['weather', 'rain', 'snow', 'storm'],
  ['outdoor', 'outside', 'garden', 'outdoors'],
  ['indoor', 'inside', 'indoors'],
  ['language', 'english', 'spanish', 'translation', 'translate'],
  ['accessible', 'accessibility', 'wheelchair', 'disabled', 'disability', 'step-free'],
];

const STOP = new Set(
  (
    'a about an and any are as at be been by can could did do does for from get got had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to us was we were what when which who why will with would you your'
  ).split(' '),
);

/** A crude English stemmer (suffixes, then a final e): enough to bring plurals and verb forms together. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const [suffix, min] of [
    ['ational', 4],
    ['ments', 4],
    ['ment', 4],
    ['ings', 4],
    ['ing', 4],
    ['edly', 4],
    ['ed', 4],
    ['ies', 3],
    ['es', 4],
    ['ly', 4],
    ['s', 3],
  ] as const) {
    if (w.length - suffix.length >= min && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length) + (suffix === 'ies' ? 'y' : '');
      break;
    }
  }
  return w.length > 4 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Stem → concept, and multi-word phrases (as stems joined by spaces) → concept. */
const CONCEPT = new Map<string, string>();
const PHRASES: [string[], string][] = [];
for (const group of SYNONYMS) {
  const concept = `c:${group[0]}`;
  for (const entry of group) {
    const parts = entry.toLowerCase().split(/[\s]+/).map(stem);
    if (parts.length === 1) CONCEPT.set(parts[0], concept);
    else PHRASES.push([parts, concept]);
  }
}

/** FNV-1a, 32 bits. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The dimension of each concept: the index of its group in `SYNONYMS`. */
const CONCEPT_DIMENSION = new Map(SYNONYMS.map((group, i) => [`c:${group[0]}`, i]));

/**
 * Adds a feature: a concept on its own dimension; any other feature (a word, a trigram) hashed, with a
 * hashed sign, onto the dimensions after the concepts'.
 */
function addFeature(v: Float64Array, feature: string, weight: number): void {
  const own = CONCEPT_DIMENSION.get(feature);
  if (own !== undefined) {
    v[own] += weight;
    return;
  }
  const h = hash(feature);
  v[SYNONYMS.length + (h % (v.length - SYNONYMS.length))] += (h & 0x80000000 ? -1 : 1) * weight;
}

/** The stems of a text's words, stop words left out. */
export function stems(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*/gu) ?? [])
    .filter((w) => !STOP.has(w))
    .map(stem);
}

/** The fake model's embedding of `text`: unit length, `FAKE_EMBEDDING_DIMENSIONS` numbers. */
export function fakeEmbedding(text: string): number[] {
  const v = new Float64Array(FAKE_EMBEDDING_DIMENSIONS);
  const s = stems(text);
  const used = new Set<number>();
  for (const [parts, concept] of PHRASES) {
    for (let i = 0; i + parts.length <= s.length; i++) {
      if (parts.every((p, j) => s[i + j] === p)) {
        addFeature(v, concept, 1);
        for (let j = 0; j < parts.length; j++) used.add(i + j);
      }
    }
  }
  s.forEach((w, i) => {
    if (used.has(i)) return;
    const concept = CONCEPT.get(w);
    addFeature(v, concept ?? `w:${w}`, concept ? 1 : 0.6);
    const padded = `^${w}$`;
    for (let j = 0; j + 3 <= padded.length; j++) addFeature(v, `t:${padded.slice(j, j + 3)}`, 0.25);
  });
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  return Array.from(v, (x) => Math.round((x / norm) * 1e6) / 1e6);
}
