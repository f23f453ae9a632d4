/**
 * A pull's read of the change log on SQLite: the counter and the rows as two statements, which
 * cost SQLite less than their union (test/changes-read.ts).
 */
import { describeChangesRead } from '../../test/changes-read';
import { openDatabase } from './connection';

describeChangesRead('SQLite', (opts) => openDatabase(':memory:', opts), 2);
