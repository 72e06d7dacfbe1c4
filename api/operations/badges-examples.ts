// Examples of the badges operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

export const badgesExamples = {
  get_badges: {
    input: { slug: 'relaydesk', shape: 'standard' },
    output: {
      listing: { slug: 'relaydesk', name: 'Relaydesk', status: 'live', profile_url: 'https://launchpad.example/listings/relaydesk' },
      shape: 'standard',
      mode: 'auto',
      size: 'm',
      items: [
        {
          kind: 'listed',
          label: 'Listed on Launchpad Directory',
          alt: 'Relaydesk is listed on Launchpad Directory',
          rank: null,
          week: null,
          svg_url: 'https://launchpad.example/badges/relaydesk/listed.svg?shape=standard&mode=light&size=m',
          light_svg_url: 'https://launchpad.example/badges/relaydesk/listed.svg?shape=standard&mode=light&size=m',
          dark_svg_url: 'https://launchpad.example/badges/relaydesk/listed.svg?shape=standard&mode=dark&size=m',
          link_url: 'https://launchpad.example/listings/relaydesk',
          width: 250,
          height: 54,
          html: '<a href="https://launchpad.example/listings/relaydesk" target="_blank" rel="noopener"><picture><source media="(prefers-color-scheme: dark)" srcset="https://launchpad.example/badges/relaydesk/listed.svg?shape=standard&amp;mode=dark&amp;size=m"><img …',
          markdown:
            '[![Relaydesk is listed on Launchpad Directory](https://launchpad.example/badges/relaydesk/listed.svg?shape=standard&mode=light&size=m)](https://launchpad.example/listings/relaydesk)',
        },
        {
          kind: 'launched',
          label: 'Launched on Launchpad Directory',
          alt: 'Relaydesk launched on Launchpad Directory',
          rank: null,
          week: null,
          svg_url: 'https://launchpad.example/badges/relaydesk/launched.svg?shape=standard&mode=light&size=m',
          light_svg_url: 'https://launchpad.example/badges/relaydesk/launched.svg?shape=standard&mode=light&size=m',
          dark_svg_url: 'https://launchpad.example/badges/relaydesk/launched.svg?shape=standard&mode=dark&size=m',
          link_url: 'https://launchpad.example/listings/relaydesk',
          width: 250,
          height: 54,
          html: '<a href="https://launchpad.example/listings/relaydesk" target="_blank" rel="noopener"><picture><source media="(prefers-color-scheme: dark)" srcset="https://launchpad.example/badges/relaydesk/launched.svg?shape=standard&amp;mode=dark&amp;size=m"><img …',
          markdown:
            '[![Relaydesk launched on Launchpad Directory](https://launchpad.example/badges/relaydesk/launched.svg?shape=standard&mode=light&size=m)](https://launchpad.example/listings/relaydesk)',
        },
      ],
    },
    error: {
      status: 400,
      code: 'invalid_input',
      detail: 'Invalid input: shape expected one of "standard", "outline", "pill", "banner", "square"',
      errors: [{ field: 'shape', in: 'query', message: 'expected one of "standard", "outline", "pill", "banner", "square"' }],
    },
  },
} satisfies Record<string, OperationExamples>;
