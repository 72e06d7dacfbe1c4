import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let app: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startTestApp({
    socket: false,
    prepare: async (sql) => {
      for (const [key, position, question, active] of [
        ['why', 2, 'Why did you start?', true],
        ['what', 1, 'What do you build?', true],
        ['old', 0, 'A retired question', false],
        ['next', 2, 'What comes next?', true], // same position as "why": inserted later, so listed after it
      ] as const) {
        const [q] = await sql`insert into interview_questions (position, question, active) values (${position}, ${question}, ${active}) returning id`;
        ids[key] = q.id;
      }
    },
  });
}, 60_000); // a loaded machine can take a while to boot the test database
afterAll(() => app?.stop(), 60_000);

describe('list_interview_questions', () => {
  test('lists the active questions in position order, unpaginated', async () => {
    const { status, body } = await app.json('/interview-questions');
    expect(status).toBe(200);
    expect(body).toEqual({
      items: [
        { id: ids.what, question: 'What do you build?' },
        { id: ids.why, question: 'Why did you start?' },
        { id: ids.next, question: 'What comes next?' },
      ],
    });
  });

  test('is public and takes no parameters', async () => {
    const res = await app.json('/interview-questions?page=1');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: '(root)', in: 'query' });
  });
});
