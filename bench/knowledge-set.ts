/**
 * The labelled set of the knowledge benchmark (bench/knowledge.ts): twenty short documents of a fictional
 * bicycle shop, and forty questions a customer might ask, each labelled with the one document that
 * answers it. Questions are written as people ask them, not copied from the documents, so the set
 * measures retrieval rather than string matching.
 */

export const LABELLED_DOCUMENTS: { key: string; title: string; text: string }[] = [
  {
    key: 'refunds',
    title: 'Returns and refunds',
    text: 'You may return a bicycle within 45 days of delivery for a full refund. It must be unused and in its original box. Refunds reach the original card within five business days after we receive the parcel.\n\nAccessories can be returned within 30 days.',
  },
  {
    key: 'shipping',
    title: 'Shipping times',
    text: 'Orders ship from our Porto warehouse. Delivery in mainland Portugal takes two business days; Spain three to four; the rest of the European Union five to seven business days. Islands may take longer.\n\nShipping is free above 150 euros.',
  },
  {
    key: 'warranty',
    title: 'Warranty',
    text: 'Every frame carries a lifetime warranty against cracks and manufacturing defects. Wheels, brakes, gears and other components are covered for two years. The warranty does not cover crashes, wear or racing use.',
  },
  {
    key: 'hours',
    title: 'Showroom opening hours',
    text: 'The Lisbon showroom opens Monday to Saturday from 9:00 to 19:00. It is closed on Sundays and public holidays. In August it closes at 17:00.',
  },
  {
    key: 'fitting',
    title: 'Bike fitting service',
    text: 'A professional bike fitting takes about 60 minutes and costs 40 euros, refunded if you buy a bicycle the same month. Book an appointment online; bring your cycling shoes and shorts.',
  },
  {
    key: 'battery',
    title: 'E-bike battery care',
    text: 'To make an electric bike battery last, keep its charge between 20 and 80 percent, store it in a cool dry place, and never leave it in full sun. Charge it with the original charger only. Over winter, charge it to half every month.',
  },
  {
    key: 'financing',
    title: 'Paying in instalments',
    text: 'Purchases above 300 euros can be paid in 12 monthly instalments with zero interest, subject to a credit check by our partner bank. Apply at checkout; the decision takes a few minutes.',
  },
  {
    key: 'puncture',
    title: 'Fixing a flat tyre',
    text: 'For a flat tyre on a tubeless wheel, add sealant and spin the wheel; for an inner tube, use the patch kit: find the hole, roughen the rubber, apply glue, wait one minute, press the patch firmly.',
  },
  {
    key: 'students',
    title: 'Student discount',
    text: 'Students get 10 percent off bicycles and accessories on presentation of a valid student card in the showroom, or a university e-mail address online. The discount cannot be combined with sales.',
  },
  {
    key: 'giftcards',
    title: 'Gift cards',
    text: 'Gift cards are valid for two years from purchase, can be used online and in the showroom, and cannot be exchanged for cash or refunded. Lost cards can be replaced with the receipt.',
  },
  {
    key: 'rental',
    title: 'Renting a bicycle',
    text: 'City bikes rent for 15 euros a day and electric bikes for 30 euros a day. We ask for a deposit of 200 euros and an identity document. Helmets and locks are included.',
  },
  {
    key: 'tradein',
    title: 'Trade-in programme',
    text: 'Bring your old bicycle and we take it in exchange for up to 30 percent of its original price, as credit towards a new one. The value depends on condition; we inspect it in the showroom.',
  },
  {
    key: 'helmet',
    title: 'Choosing a helmet size',
    text: 'Measure the circumference of your head one finger above the eyebrows with a soft tape. Small fits 51 to 55 centimetres, medium 55 to 59, large 59 to 63. A helmet should not move when you shake your head.',
  },
  {
    key: 'insurance',
    title: 'Theft insurance',
    text: 'Our partner insurer covers theft and accidental damage for 8 percent of the bicycle price per year. Claims need a police report within 48 hours and the receipt of the lock.',
  },
  {
    key: 'fleet',
    title: 'Company fleets',
    text: 'Businesses that order ten or more bicycles get a fleet discount and a dedicated account manager, plus on-site servicing every quarter. Invoices carry the company tax number.',
  },
  {
    key: 'kids',
    title: "Children's bike sizes",
    text: "Choose children's bicycles by wheel size: 12 inch wheels for ages two to four, 16 inch for four to six, 20 inch for six to nine, 24 inch for nine to twelve. The child should touch the ground with both feet.",
  },
  {
    key: 'service',
    title: 'Servicing schedule',
    text: 'Have your bicycle serviced every six months or every 2000 kilometres, whichever comes first. A standard service costs 45 euros and includes brake and gear adjustment, chain cleaning and a safety check.',
  },
  {
    key: 'payments',
    title: 'Payment methods',
    text: 'We accept Visa, Mastercard, MB Way, PayPal and bank transfer. Cash is accepted in the showroom for amounts up to 1000 euros.',
  },
  {
    key: 'tracking',
    title: 'Tracking an order',
    text: 'When your order leaves the warehouse you receive an e-mail with a tracking number from the carrier. You can also follow the parcel from the Orders page of your account.',
  },
  {
    key: 'privacy',
    title: 'Personal data',
    text: 'We keep customer data for five years after the last purchase. To see, correct or delete your data, write to privacy@example.com; we answer within thirty days.',
  },
];

export const LABELLED_QUERIES: { query: string; relevant: string }[] = [
  { query: 'How long do I have to send a bike back and get my money?', relevant: 'refunds' },
  { query: 'can I return accessories', relevant: 'refunds' },
  { query: 'When will my order arrive in Spain?', relevant: 'shipping' },
  { query: 'Is delivery free?', relevant: 'shipping' },
  { query: 'My frame cracked after a year, is that covered?', relevant: 'warranty' },
  { query: 'how long are brakes and gears guaranteed', relevant: 'warranty' },
  { query: 'Are you open on Sunday?', relevant: 'hours' },
  { query: 'What time does the Lisbon store close?', relevant: 'hours' },
  { query: 'How much is a bike fit and how long does it take?', relevant: 'fitting' },
  { query: 'book an appointment to adjust the bike to my body', relevant: 'fitting' },
  { query: 'How should I charge my e-bike battery?', relevant: 'battery' },
  { query: 'storing electric bike batteries over winter', relevant: 'battery' },
  { query: 'Can I pay monthly without interest?', relevant: 'financing' },
  { query: 'credit check for instalment payments', relevant: 'financing' },
  { query: 'I have a flat tire, how do I fix it?', relevant: 'puncture' },
  { query: 'how to use a patch kit on an inner tube', relevant: 'puncture' },
  { query: 'Do you give discounts to university students?', relevant: 'students' },
  { query: 'student card discount percentage', relevant: 'students' },
  { query: 'When does a gift card expire?', relevant: 'giftcards' },
  { query: 'can I get cash back for my gift card', relevant: 'giftcards' },
  { query: 'How much does it cost to hire an electric bike for a day?', relevant: 'rental' },
  { query: 'deposit needed to rent a city bike', relevant: 'rental' },
  { query: 'Can I exchange my old bicycle for credit?', relevant: 'tradein' },
  { query: 'what is my used bike worth as a trade in', relevant: 'tradein' },
  { query: 'What helmet size do I need?', relevant: 'helmet' },
  { query: 'measuring head circumference for a helmet', relevant: 'helmet' },
  { query: 'Is my bike insured against theft?', relevant: 'insurance' },
  { query: 'how to claim insurance after my bicycle was stolen', relevant: 'insurance' },
  { query: 'We want to buy bikes for our employees', relevant: 'fleet' },
  { query: 'discount for businesses ordering many bicycles', relevant: 'fleet' },
  { query: 'What size bike for a seven year old?', relevant: 'kids' },
  { query: 'wheel size for children', relevant: 'kids' },
  { query: 'How often should I service my bike?', relevant: 'service' },
  { query: 'price of a standard service with chain cleaning', relevant: 'service' },
  { query: 'Do you take PayPal or cash?', relevant: 'payments' },
  { query: 'can I pay with MB Way', relevant: 'payments' },
  { query: 'Where is my parcel? I need the tracking number', relevant: 'tracking' },
  { query: 'follow my order from my account', relevant: 'tracking' },
  { query: 'Please delete my personal data', relevant: 'privacy' },
  { query: 'how long do you keep customer information', relevant: 'privacy' },
];

/** Words the distractor chunks are made of: common English plus the shop's own vocabulary, so they compete. */
export const DISTRACTOR_WORDS = (
  'the of and to in is it you that he was for on are as with his they at be this have from or one had by word but not what all were we when ' +
  'your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into ' +
  'time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come ' +
  'made may part over new sound take only little work know place year live me back give most very after thing our just name good sentence man ' +
  'think say great where help through much before line right too mean old any same tell boy follow came want show also around form three small ' +
  'set put end does another well large must big even such because turn here why ask went men read need land different home us move try kind ' +
  'hand picture again change off play spell air away animal house point page letter mother answer found study still learn should america world ' +
  'bicycle bike order delivery price euros shop store customer card account email parcel wheel frame brake gear chain tyre battery service ' +
  'week month days hours team product model colour size stock catalogue invoice receipt review photo city road mountain route ride riders ' +
  'club event race training coffee weather morning evening lamp shelf box label carton supplier factory quality design test season sale news'
).split(' ');
