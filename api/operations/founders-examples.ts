// Examples of the founders operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const foundersExamples = {
  list_founders: {
    input: { per_page: 2 },
    output: {
      items: [
        {
          slug: 'aisha-brennan',
          name: 'Aisha Brennan',
          title: 'Founder',
          country: 'FR',
          avatar_url: 'https://avatars.launchpad.example/aisha-brennan.png',
          companies: 1,
        },
        {
          slug: 'aisha-dubois',
          name: 'Aisha Dubois',
          title: 'Founder',
          country: 'NG',
          avatar_url: 'https://avatars.launchpad.example/aisha-dubois.png',
          companies: 1,
        },
      ],
      page: 1,
      per_page: 2,
      total: 239,
      has_more: true,
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: per_page expected integer to be less or equal to 100',
      errors: [{ field: 'per_page', in: 'query', message: 'expected integer to be less or equal to 100' }],
    },
  },
  get_founder: {
    input: { slug: 'camille-ivanova' },
    output: {
      slug: 'camille-ivanova',
      name: 'Camille Ivanova',
      title: 'Founder',
      bio: 'Camille Ivanova founded Brightflow. Before that, Camille ran growth at a B2B SaaS scale-up. Weekends are for trail running.',
      country: 'US',
      avatar_url: 'https://avatars.launchpad.example/camille-ivanova.png',
      socials: { linkedin: 'https://www.linkedin.com/in/camille-ivanova', x: 'https://x.com/camilleivanova' },
      stories: [],
      interview: [],
      companies: [
        {
          id: 132,
          slug: 'brightflow',
          name: 'Brightflow',
          url: 'https://brightflow.io.example',
          profile_url: 'https://launchpad.example/listings/brightflow',
          tagline: 'Keep log costs under control with a modern log management tool',
          logo_url: 'https://brightflow.io.example/logo.png',
          status: 'live',
          plan: 'free',
          category: { slug: 'monitoring', name: 'Monitoring & Observability' },
          pricing_model: 'freemium',
          country: 'US',
          launch_week: '2026-09-14',
          launched_at: '2026-09-14T00:13:15Z',
          votes: 45,
          follows: 11,
          views: 1742,
          role: 'Founder',
        },
      ],
    },
    error: { status: 404, code: 'not_found', detail: 'No founder with slug "camille".' },
  },
} satisfies Record<string, OperationExamples>;
