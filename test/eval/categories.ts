// The category tree the evaluation drafts against, written the way a directory's editors
// describe their categories (name, description, a few keywords). The drafter sees only these
// texts, never a site's truth file.
import type { CategoryText } from '../../pipeline/drafting/types.ts';

export const EVAL_CATEGORIES: CategoryText[] = [
  {
    slug: 'project-management',
    name: 'Project Management',
    description: 'Plan and track projects: task boards, sprints, roadmaps, timelines and team workload.',
    keywords: ['kanban', 'tasks', 'roadmap', 'sprint', 'gantt'],
  },
  {
    slug: 'analytics',
    name: 'Analytics',
    description: 'Dashboards, reports and metrics: traffic, revenue, profit, conversion funnels, cohorts and customer behaviour.',
    keywords: ['dashboard', 'metrics', 'reporting', 'funnel', 'cohort', 'insights'],
  },
  {
    slug: 'developer-tools',
    name: 'Developer Tools',
    description: 'Tools for software developers: libraries, SDKs, APIs, databases, queues, code generation, CI and debugging.',
    keywords: ['typescript', 'sql', 'api', 'sdk', 'library', 'open source', 'npm', 'code'],
  },
  {
    slug: 'marketing',
    name: 'Marketing',
    description: 'Reach and grow an audience: email newsletters, campaigns, subscribers, SEO, social media and landing pages.',
    keywords: ['newsletter', 'email', 'subscribers', 'campaign', 'seo', 'audience'],
  },
  {
    slug: 'security',
    name: 'Security',
    description: 'Protect systems and data: secrets, passwords, encryption, access control, audit logs and compliance.',
    keywords: ['secrets', 'encryption', 'passwords', 'audit', 'compliance', 'sso'],
  },
  {
    slug: 'productivity',
    name: 'Productivity',
    description: 'Personal and team productivity: notes, focus, timers, calendars, writing and organising knowledge.',
    keywords: ['notes', 'focus', 'timer', 'notebook', 'organise', 'habits'],
  },
  {
    slug: 'finance',
    name: 'Finance',
    description: 'Money matters for businesses: invoicing, payments, accounting, bookkeeping, expenses, tax and payroll.',
    keywords: ['invoice', 'invoices', 'payments', 'accounting', 'vat', 'tax', 'bank'],
  },
  {
    slug: 'design',
    name: 'Design',
    description: 'Design tools: user interface design, prototyping, design systems, design tokens, handoff to developers and graphics.',
    keywords: ['figma', 'prototype', 'ui', 'mock-up', 'handoff', 'design system'],
  },
  {
    slug: 'customer-support',
    name: 'Customer Support',
    description: 'Help customers: help desks, ticketing, shared inboxes, live chat, help centres and knowledge bases.',
    keywords: ['help desk', 'tickets', 'shared inbox', 'live chat', 'support team'],
  },
  {
    slug: 'human-resources',
    name: 'Human Resources',
    description: 'Manage staff: hiring, employee scheduling, shifts and rotas, timesheets, time off and onboarding.',
    keywords: ['staff', 'employees', 'shifts', 'rota', 'scheduling', 'timesheets', 'hiring'],
  },
  {
    slug: 'monitoring',
    name: 'Monitoring',
    description: 'Watch websites and infrastructure: uptime checks, alerts, incidents, status pages and on-call.',
    keywords: ['uptime', 'alerts', 'incidents', 'status page', 'on-call'],
  },
];
