/**
 * Every setting of the sync server, read from the environment and validated by zod.
 * Each has an embedded default so `npm start` works with nothing set. README.md lists them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpush from 'web-push';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './logger';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean),
);

/** An empty variable (`METRICS_PORT=`) means unset, not zero or an empty token. */
function unsetIfEmpty<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === '' ? undefined : v), schema);
}
/** Comma-separated origins (`scheme://host[:port]`, nothing after), as browsers send `Origin`. */
const origins = list.pipe(
  z.array(
    z
      .string()
      .refine((o) => URL.canParse(o) && /^https?:\/\/[^/]+\/?$/.test(o), {
        message: 'must be origins such as https://pingme.example, separated by commas',
      })
      .transform((o) => new URL(o).origin),
  ),
);

function count(fallback: number) {
  return z.coerce.number().int().positive().default(fallback);
}
function minutes(fallback: number) {
  return z.coerce.number().positive().default(fallback);
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, 'data')),
  // Several nodes on PostgreSQL (docs/deploy.md); unset, the SQLite file in DATA_DIR.
  DATABASE_URL: unsetIfEmpty(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//i, 'must be a postgres:// URL (unset: the SQLite file)')
      .optional(),
  ),
  DATABASE_POOL_SIZE: count(10),
  DATABASE_WRITE_TRANSACTIONS: count(1),
  CHANGE_BUS_CATCH_UP_SECONDS: z.coerce.number().positive().default(30),
  PUBLIC_URL: z.url().optional(),
  ALLOWED_ORIGINS: origins.default([]),
  PWA_DIST: z.string().default(path.join(REPO_ROOT, 'pwa', 'dist')),
  SESSION_SECRET: z.string().min(32).optional(),
  SESSION_MAX_AGE_DAYS: z.coerce.number().positive().default(30),
  TRUST_PROXY: bool.default(false),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('PingMe <no-reply@pingme.local>'),
  ADMIN_EMAILS: list.default([]),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().positive().default(60),
  VERIFY_TOKEN_TTL_HOURS: z.coerce.number().positive().default(48),
  // Sign-in throttling: growing delays, never a lockout (docs/security.md, "Sign-in throttling").
  LOGIN_FREE_FAILURES: count(3),
  LOGIN_FIRST_DELAY_SECONDS: z.coerce.number().positive().default(1),
  LOGIN_MAX_DELAY_MINUTES: minutes(15),
  LOGIN_ACCOUNT_FREE_FAILURES: count(10),
  LOGIN_IP_FREE_FAILURES: count(50),
  LOGIN_SHARED_MAX_DELAY_SECONDS: z.coerce.number().positive().default(60),
  LOGIN_FORGET_HOURS: z.coerce.number().positive().default(24),
  LOG_REQUESTS: bool.default(false),
  WRITE_COALESCING: bool.default(true),
  SQLITE_CHECKPOINT_THREAD: bool.default(true),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  // Operations (README "Operations"): /metrics is off unless one of these is set.
  METRICS_TOKEN: unsetIfEmpty(
    z.string().min(16, 'use at least 16 characters (e.g. openssl rand -hex 32)').optional(),
  ),
  METRICS_PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().default('127.0.0.1'),
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://')
    .default('mailto:admin@pingme.local'),
  PUSH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  PUSH_ALLOW_HTTP_ENDPOINTS: bool.default(false),
  WS_HEARTBEAT_MS: z.coerce.number().int().positive().default(30_000),
  SYNC_RETENTION_DAYS: z.coerce.number().positive().default(90),
  HOUSEKEEPING_EVERY_MINUTES: z.coerce.number().positive().default(360),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
  // Sessions and rate limits (docs/security.md).
  SESSION_IDLE_DAYS: z.coerce.number().positive().default(14),
  SIGNUP_MAX_PER_IP: count(10),
  SIGNUP_WINDOW_MINUTES: minutes(60),
  RESET_MAX_PER_EMAIL_PER_IP: count(5),
  RESET_MAX_PER_IP: count(20),
  RESET_MAILS_PER_EMAIL: count(10),
  RESET_WINDOW_MINUTES: minutes(60),
  VERIFY_RESEND_MAX_PER_EMAIL_PER_IP: count(5),
  VERIFY_RESEND_MAX_PER_IP: count(20),
  VERIFY_RESEND_MAILS_PER_EMAIL: count(10),
  VERIFY_RESEND_WINDOW_MINUTES: minutes(60),
  SEARCH_MAX_PER_USER: count(60),
  SEARCH_WINDOW_MINUTES: minutes(1),
  INVITE_CHECK_MAX_PER_USER: count(30),
  INVITE_USE_MAX_PER_USER: count(10),
  INVITE_WINDOW_MINUTES: minutes(10),
  REPORT_MAX_PER_USER: count(20),
  REPORT_WINDOW_MINUTES: minutes(60),
  WS_MAX_MESSAGES: count(20),
  WS_MESSAGE_WINDOW_SECONDS: z.coerce.number().positive().default(10),
  UPLOAD_MAX_CONCURRENT: count(4),
});

/** A fixed-window rate limit: at most `max` attempts per `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** Every throttle besides sign-in failures (loginThrottle), by what it protects. */
export interface RateLimits {
  signupPerIp: RateLimit;
  /** Requests for one e-mail from one address: 429 to that address only. */
  resetPerEmailPerIp: RateLimit;
  resetPerIp: RateLimit;
  /** Mails one e-mail receives, whoever asks: beyond, the same answer and no mail. */
  resetMailsPerEmail: RateLimit;
  verifyResendPerEmailPerIp: RateLimit;
  verifyResendPerIp: RateLimit;
  verifyResendMailsPerEmail: RateLimit;
  searchPerUser: RateLimit;
  inviteCheckPerUser: RateLimit;
  inviteUsePerUser: RateLimit;
  reportPerUser: RateLimit;
}

/**
 * Growing delays for wrong passwords (services/sign-in-throttle.ts): after `freeFailures` the
 * next try must wait `firstDelayMs` (1 s), then twice that, and so on up to a cap. Counted per account and client address
 * pair (or per account and known device), and, for devices an account does not know, per
 * account and per address with a short cap.
 */
export interface LoginThrottle {
  freeFailures: number;
  /** The first wait; each later one doubles it. */
  firstDelayMs: number;
  maxDelayMs: number;
  accountFreeFailures: number;
  ipFreeFailures: number;
  sharedMaxDelayMs: number;
  /** A count with no failure for this long starts again. */
  forgetMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  /** PostgreSQL (DATABASE_URL), or undefined: the SQLite file `dbFile`. */
  databaseUrl: string | undefined;
  /** PostgreSQL: connections per node. */
  databasePoolSize: number;
  /**
   * PostgreSQL: groups of writes (mutations/coalesce.ts) a node runs at once, each in its own
   * transaction; at most one less than the pool, so reads always find a connection.
   */
  databaseWriteTransactions: number;
  /**
   * Secrets not set in the environment that every node must share: on PostgreSQL they are kept in
   * the database (server.ts reads them there), not in DATA_DIR/secrets.json.
   */
  sharedSecrets: { session: boolean; vapid: boolean };
  /** How often each node reads the change log for changes whose hint it may have missed. */
  busCatchUpMs: number;
  uploadsDir: string;
  publicUrl: string;
  /** Origins besides PUBLIC_URL's that may send mutating requests (middleware/csrf.ts). */
  allowedOrigins: string[];
  pwaDist: string;
  sessionKeys: string[];
  /** Absolute: a session ends this long after its sign-in, however much it is used. */
  sessionMaxAgeMs: number;
  /** A session unused for this long is dead. */
  sessionIdleMs: number;
  /** PUBLIC_URL is https: the session cookie is always Secure. */
  secureCookies: boolean;
  trustProxy: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmails: string[];
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  resetTokenTtlMs: number;
  verifyTokenTtlMs: number;
  loginThrottle: LoginThrottle;
  logRequests: boolean;
  /** REST writes that arrive together share one commit (mutations/coalesce.ts). */
  writeCoalescing: boolean;
  /** SQLite: WAL checkpoints on a thread of their own (db/checkpointer.ts). */
  checkpointThread: boolean;
  logLevel: LogLevel;
  /**
   * /metrics: on the main port only with a token (Bearer); on a port of its own when `port` is
   * set (the token is then required there too, if set).
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  vapid: { publicKey: string; privateKey: string; subject: string };
  push: { timeoutMs: number; allowHttpEndpoints: boolean };
  wsHeartbeatMs: number;
  /** Change-log rows older than this are pruned; older cursors get a full snapshot. */
  syncRetentionMs: number;
  /** How often housekeeping runs (services/housekeeping.ts); it also runs once at start. */
  housekeepingEveryMs: number;
  /** SIGTERM to exit at most: requests in flight get most of it, open sockets their handshake. */
  shutdownTimeoutMs: number;
  rateLimits: RateLimits;
  /** Per /ws socket: at most `max` messages per `windowMs`, else close 1008. */
  wsMessageLimit: RateLimit;
  /** Photo uploads handled at once; more are answered 503 with Retry-After. */
  uploadMaxConcurrent: number;
}

/**
 * The SQLite file of DATA_DIR, resolved as loadConfig resolves it but without creating anything
 * (`npm run backup` must not make an empty DATA_DIR where there was none).
 */
export function databaseFile(env: Record<string, string | undefined> = process.env): string {
  const base = env.INIT_CWD ?? process.cwd();
  return path.join(path.resolve(base, env.DATA_DIR || path.join(REPO_ROOT, 'data')), DB_FILE_NAME);
}

const DB_FILE_NAME = 'pingme.sqlite';

/** Reads the environment (or the given record), creating DATA_DIR and its secrets on first start. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.VAPID_PUBLIC_KEY !== !e.VAPID_PRIVATE_KEY) {
    throw new Error(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all',
    );
  }
  // Relative paths are relative to where the person ran npm, not to the workspace npm switched to.
  const base = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(base, e.DATA_DIR);
  const uploadsDir = path.join(dataDir, 'uploads');
  mkdirSync(uploadsDir, { recursive: true });
  const shared = {
    session: !!e.DATABASE_URL && !e.SESSION_SECRET,
    vapid: !!e.DATABASE_URL && !e.VAPID_PUBLIC_KEY,
  };
  // On PostgreSQL nothing is written to DATA_DIR/secrets.json: the database holds what is unset.
  const secrets = shared.session || shared.vapid ? generateSecrets() : loadSecrets(dataDir);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dbFile: path.join(dataDir, DB_FILE_NAME),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseWriteTransactions: Math.max(
      1,
      Math.min(e.DATABASE_WRITE_TRANSACTIONS, e.DATABASE_POOL_SIZE - 1),
    ),
    sharedSecrets: shared,
    busCatchUpMs: e.CHANGE_BUS_CATCH_UP_SECONDS * 1000,
    uploadsDir,
    publicUrl,
    allowedOrigins: e.ALLOWED_ORIGINS,
    pwaDist: path.resolve(base, e.PWA_DIST),
    sessionKeys: [e.SESSION_SECRET ?? secrets.sessionSecret],
    sessionMaxAgeMs: ms(e.SESSION_MAX_AGE_DAYS * 24 * 3600_000),
    secureCookies: publicUrl.startsWith('https://'),
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    adminEmails: e.ADMIN_EMAILS,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : undefined,
    resetTokenTtlMs: ms(e.RESET_TOKEN_TTL_MINUTES * 60_000),
    verifyTokenTtlMs: ms(e.VERIFY_TOKEN_TTL_HOURS * 3600_000),
    loginThrottle: {
      freeFailures: e.LOGIN_FREE_FAILURES,
      firstDelayMs: ms(e.LOGIN_FIRST_DELAY_SECONDS * 1000),
      maxDelayMs: ms(e.LOGIN_MAX_DELAY_MINUTES * 60_000),
      accountFreeFailures: e.LOGIN_ACCOUNT_FREE_FAILURES,
      ipFreeFailures: e.LOGIN_IP_FREE_FAILURES,
      sharedMaxDelayMs: ms(e.LOGIN_SHARED_MAX_DELAY_SECONDS * 1000),
      forgetMs: ms(e.LOGIN_FORGET_HOURS * 3600_000),
    },
    logRequests: e.LOG_REQUESTS,
    writeCoalescing: e.WRITE_COALESCING,
    checkpointThread: e.SQLITE_CHECKPOINT_THREAD,
    logLevel: e.LOG_LEVEL,
    metrics: { token: e.METRICS_TOKEN || undefined, port: e.METRICS_PORT, host: e.METRICS_HOST },
    vapid: {
      publicKey: e.VAPID_PUBLIC_KEY ?? secrets.vapidPublicKey,
      privateKey: e.VAPID_PRIVATE_KEY ?? secrets.vapidPrivateKey,
      subject: e.VAPID_SUBJECT,
    },
    push: { timeoutMs: e.PUSH_TIMEOUT_MS, allowHttpEndpoints: e.PUSH_ALLOW_HTTP_ENDPOINTS },
    wsHeartbeatMs: e.WS_HEARTBEAT_MS,
    syncRetentionMs: ms(e.SYNC_RETENTION_DAYS * 24 * 3600_000),
    housekeepingEveryMs: e.HOUSEKEEPING_EVERY_MINUTES * 60_000,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    sessionIdleMs: ms(e.SESSION_IDLE_DAYS * 24 * 3600_000),
    rateLimits: {
      signupPerIp: limit(e.SIGNUP_MAX_PER_IP, e.SIGNUP_WINDOW_MINUTES),
      resetPerEmailPerIp: limit(e.RESET_MAX_PER_EMAIL_PER_IP, e.RESET_WINDOW_MINUTES),
      resetPerIp: limit(e.RESET_MAX_PER_IP, e.RESET_WINDOW_MINUTES),
      resetMailsPerEmail: limit(e.RESET_MAILS_PER_EMAIL, e.RESET_WINDOW_MINUTES),
      verifyResendPerEmailPerIp: limit(
        e.VERIFY_RESEND_MAX_PER_EMAIL_PER_IP,
        e.VERIFY_RESEND_WINDOW_MINUTES,
      ),
      verifyResendPerIp: limit(e.VERIFY_RESEND_MAX_PER_IP, e.VERIFY_RESEND_WINDOW_MINUTES),
      verifyResendMailsPerEmail: limit(
        e.VERIFY_RESEND_MAILS_PER_EMAIL,
        e.VERIFY_RESEND_WINDOW_MINUTES,
      ),
      searchPerUser: limit(e.SEARCH_MAX_PER_USER, e.SEARCH_WINDOW_MINUTES),
      inviteCheckPerUser: limit(e.INVITE_CHECK_MAX_PER_USER, e.INVITE_WINDOW_MINUTES),
      inviteUsePerUser: limit(e.INVITE_USE_MAX_PER_USER, e.INVITE_WINDOW_MINUTES),
      reportPerUser: limit(e.REPORT_MAX_PER_USER, e.REPORT_WINDOW_MINUTES),
    },
    wsMessageLimit: { max: e.WS_MAX_MESSAGES, windowMs: e.WS_MESSAGE_WINDOW_SECONDS * 1000 },
    uploadMaxConcurrent: e.UPLOAD_MAX_CONCURRENT,
  };
}

/**
 * Whole milliseconds: times are stored as integers (PostgreSQL's bigint refuses a fraction), so a
 * setting such as 0.000001 hours becomes 4 ms, not 3.6.
 */
function ms(value: number): number {
  return Math.max(1, Math.round(value));
}

function limit(max: number, windowMinutes: number): RateLimit {
  return { max, windowMs: ms(windowMinutes * 60_000) };
}

export interface Secrets {
  sessionSecret: string;
  /** Web Push (VAPID) key pair, base64url, as web-push generates it. */
  vapidPublicKey: string;
  vapidPrivateKey: string;
}

/** A fresh session secret and VAPID key pair. */
export function generateSecrets(): Secrets {
  const keys = webpush.generateVAPIDKeys();
  return {
    sessionSecret: randomBytes(32).toString('base64url'),
    vapidPublicKey: keys.publicKey,
    vapidPrivateKey: keys.privateKey,
  };
}

/** The database's shared secrets in place of those the environment left unset (server.ts). */
export function withSecrets(config: Config, secrets: Secrets): Config {
  return {
    ...config,
    sessionKeys: config.sharedSecrets.session ? [secrets.sessionSecret] : config.sessionKeys,
    vapid: config.sharedSecrets.vapid
      ? { ...config.vapid, publicKey: secrets.vapidPublicKey, privateKey: secrets.vapidPrivateKey }
      : config.vapid,
  };
}

/** Where the database is: the PostgreSQL URL, or the SQLite file. */
export function databaseLocation(config: Pick<Config, 'databaseUrl' | 'dbFile'>): string {
  return config.databaseUrl ?? config.dbFile;
}

/**
 * Generated once, then kept in DATA_DIR/secrets.json (mode 600) so sessions and push
 * subscriptions survive restarts. A file from an older version gains the missing keys.
 */
function loadSecrets(dataDir: string): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>)
    : {};
  const secrets = { ...stored };
  secrets.sessionSecret ||= randomBytes(32).toString('base64url');
  if (!secrets.vapidPublicKey || !secrets.vapidPrivateKey) {
    const keys = webpush.generateVAPIDKeys();
    secrets.vapidPublicKey = keys.publicKey;
    secrets.vapidPrivateKey = keys.privateKey;
  }
  const complete = secrets as Secrets;
  if (
    stored.sessionSecret !== complete.sessionSecret ||
    stored.vapidPublicKey !== complete.vapidPublicKey ||
    stored.vapidPrivateKey !== complete.vapidPrivateKey
  ) {
    writeFileSync(file, JSON.stringify(complete, null, 2), { mode: 0o600 });
  }
  return complete;
}
