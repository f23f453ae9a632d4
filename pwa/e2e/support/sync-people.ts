/** The same helpers as ./people (kept under both names: tests import either). */
export * from './people';
