/**
 * Vitest globalSetup of the projects that run on PostgreSQL (vitest.config.ts): one server for the
 * run (test/postgres.ts: a throw-away cluster, or PINGME_TEST_POSTGRES_URL) and one migrated
 * template database that every test server copies (`startTestServer` in test/harness.ts makes a
 * database of its own from it: CREATE DATABASE … TEMPLATE is a file copy, far quicker than
 * running the migrations again).
 */
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/connection';
import { createDatabase, dropDatabase, testPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: { adminUrl: string; template: string };
  }
}

export default async function setup(project: TestProject) {
  const postgres = await testPostgres();
  const { adminUrl } = postgres;
  const templateUrl = await createDatabase(adminUrl);
  const migrated = await openDatabase(templateUrl, { poolSize: 1 });
  await migrated.close();
  const template = new URL(templateUrl).pathname.slice(1);
  project.provide('postgres', { adminUrl, template });
  return async () => {
    await dropDatabase(templateUrl);
    await postgres.stop();
  };
}
