// Where customers came from: the attribution an order, subscription or cart keeps (a copy, as it
// was at checkout). Four kinds of visit in turn, one of them with nothing known but the agent.
import type { Rec } from '../kinds.js';
import { STAFF } from './store-facts.js';

const CAMPAIGNS = ['winter-layers', 'coffee-club', 'trail-ready', 'gift-guide'];

export function attribution(n: number): Rec {
  const campaign = CAMPAIGNS[n % CAMPAIGNS.length]!;
  switch (n % 4) {
    case 0:
      return {
        affiliate: 'trailblazer-journal',
        agent: { ...STAFF.priya },
        funnel: `${campaign}-2026`,
        gclid: null,
        metadata: { landing_page: `/collections/${campaign}` },
        subaffiliate1: 'newsletter',
        subaffiliate2: `week-${(n % 52) + 1}`,
        subaffiliate3: 'hero-banner',
        subaffiliate4: 'desktop',
        subaffiliate5: 'us-west',
        utm_campaign: campaign,
        utm_content: 'layering-guide',
        utm_medium: 'email',
        utm_source: 'newsletter',
        utm_term: null,
      };
    case 1:
      return {
        affiliate: null,
        agent: { ...STAFF.priya },
        funnel: null,
        gclid: null,
        metadata: {},
        subaffiliate1: null,
        subaffiliate2: null,
        subaffiliate3: null,
        subaffiliate4: null,
        subaffiliate5: null,
        utm_campaign: campaign,
        utm_content: 'story',
        utm_medium: 'social',
        utm_source: 'instagram',
        utm_term: null,
      };
    case 2:
      // A direct visit: nothing is known but the agent on duty.
      return {
        affiliate: null,
        agent: { ...STAFF.tomas },
        funnel: null,
        gclid: null,
        metadata: null,
        subaffiliate1: null,
        subaffiliate2: null,
        subaffiliate3: null,
        subaffiliate4: null,
        subaffiliate5: null,
        utm_campaign: null,
        utm_content: null,
        utm_medium: null,
        utm_source: null,
        utm_term: null,
      };
    default:
      return {
        affiliate: 'gearlab-reviews',
        agent: { ...STAFF.priya },
        funnel: `${campaign}-search`,
        gclid: `Cj0KCQiA${campaign.replace(/-/g, '')}${n}EAAYASAAEgK`,
        metadata: { keyword_group: 'outdoor apparel' },
        subaffiliate1: 'search',
        subaffiliate2: 'brand',
        subaffiliate3: null,
        subaffiliate4: 'mobile',
        subaffiliate5: null,
        utm_campaign: campaign,
        utm_content: 'text-ad',
        utm_medium: 'cpc',
        utm_source: 'google',
        utm_term: 'merino layers',
      };
  }
}
