#!/usr/bin/env node
// A Standoff bot in JavaScript: connects to a referee with a token and answers every decision
// with a random legal option. It is game-agnostic (it only picks an index into
// `decision.options`), so it plays Schotten Totten today and Twilight Struggle later unchanged.
//
// It needs nothing but Node.js, two npm packages and the standoff.v1 .proto files, which it
// loads at start-up (no generated code). See README.md in this folder and docs/protocol.md.
//
//   STANDOFF_TOKEN=sto_... node bot.js --address 127.0.0.1:50051 --matches 3
"use strict";

const fs = require("node:fs");
const path = require("node:path");
let grpc, protoLoader;
try {
  grpc = require("@grpc/grpc-js");
  protoLoader = require("@grpc/proto-loader");
} catch (err) {
  if (err.code !== "MODULE_NOT_FOUND") throw err;
  console.error(`standoff node bot: ${err.message.split("\n")[0]}: run \`npm ci\` in ${__dirname} first`);
  process.exit(2);
}

const PROTOCOL_VERSION = 1;
const BOT_VERSION = require("./package.json").version;

// Exit codes (documented in README.md).
const EXIT_OK = 0;
const EXIT_FAILED = 1; // the session was lost for good, or ended before --matches
const EXIT_USAGE = 2; // bad flags, no token, .proto files not found
const EXIT_REFUSED = 3; // the referee refused the session: bad token, unsupported version...

const USAGE = `usage: node bot.js [options]

  --address HOST:PORT   referee address            (env STANDOFF_ADDRESS, default 127.0.0.1:50051)
  --token TOKEN         the bot's bearer token     (env STANDOFF_TOKEN; the env is safer than argv)
  --matches N           stop after N matches ended (env STANDOFF_MATCHES; 0 = until the server
                        closes the session)
  --proto-dir DIR       root holding standoff/v1/*.proto
                        (env STANDOFF_PROTO_DIR, default ../../proto relative to this script)
  --name NAME           bot_name sent in Hello (informational; identity comes from the token)
  --games LIST          comma-separated games to play (default: every game)
  --tls                 use TLS (system roots, or --ca)
  --ca FILE             PEM file of the CA that signed the server (implies --tls; env STANDOFF_CA)
  --max-retries N       reconnect attempts after a transient failure (default 20)
  --think-ms N          wait N ms before each answer, as a bot that searches would (default 0)
  --json                print one JSON object per line instead of text
  --quiet               print only the final summary
  -h, --help            this help`;

// -- options --------------------------------------------------------------------------------------

class UsageError extends Error {
  constructor(message, { showUsage = true } = {}) {
    super(message);
    this.showUsage = showUsage;
  }
}

function parseArgs(argv, env) {
  const opts = {
    address: env.STANDOFF_ADDRESS || "127.0.0.1:50051",
    token: env.STANDOFF_TOKEN || "",
    matches: env.STANDOFF_MATCHES ? Number(env.STANDOFF_MATCHES) : 0,
    protoDir: env.STANDOFF_PROTO_DIR || path.resolve(__dirname, "..", "..", "proto"),
    name: "node-random-bot",
    games: [],
    tls: false,
    ca: env.STANDOFF_CA || "",
    maxRetries: 20,
    thinkMs: 0,
    json: false,
    quiet: false,
  };
  const takesValue = {
    "--address": "address", "--token": "token", "--matches": "matches", "--proto-dir": "protoDir",
    "--name": "name", "--games": "games", "--ca": "ca", "--max-retries": "maxRetries",
    "--think-ms": "thinkMs",
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let value;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (arg === "-h" || arg === "--help") {
      opts.help = true;
    } else if (arg === "--tls") {
      opts.tls = true;
    } else if (arg === "--json") {
      opts.json = true;
    } else if (arg === "--quiet") {
      opts.quiet = true;
    } else if (arg in takesValue) {
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
        value = argv[++i];
      }
      opts[takesValue[arg]] = value;
    } else {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  const counts = [["matches", "--matches"], ["maxRetries", "--max-retries"], ["thinkMs", "--think-ms"]];
  for (const [key, flag] of counts) {
    const n = Number(opts[key]);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number >= 0`);
    opts[key] = n;
  }
  if (typeof opts.games === "string") opts.games = opts.games.split(",").map((g) => g.trim()).filter(Boolean);
  if (opts.ca) opts.tls = true;
  return opts;
}

// -- the wire contract, loaded from the .proto files ---------------------------------------------

function loadProtocol(protoDir) {
  const entry = path.join(protoDir, "standoff", "v1", "referee.proto");
  if (!fs.existsSync(entry)) {
    throw new UsageError(
      `cannot find standoff/v1/referee.proto under ${protoDir}: point --proto-dir or ` +
        "STANDOFF_PROTO_DIR at the directory that holds standoff/v1/*.proto " +
        "(the repository's proto/ folder, or the output of `standoff proto --out DIR`)",
      { showUsage: false }
    );
  }
  const definition = protoLoader.loadSync("standoff/v1/referee.proto", {
    includeDirs: [protoDir],
    keepCase: true, // field names as in the .proto files: decision_id, option_index...
    longs: String, // 64-bit integers as decimal strings (decision ids are uint64)
    enums: String, // enum values by name: "ERROR_CODE_TIMEOUT"
    defaults: true, // absent scalars/lists/maps read as their defaults (proto3 semantics)
    oneofs: true, // message.body / view.game name the oneof member that is set
  });
  const v1 = grpc.loadPackageDefinition(definition).standoff.v1;
  return v1.RefereeService;
}

// -- randomness: one small seeded generator per match (MatchStarted.seed) ------------------------

function rngFromSeed(seed) {
  // mulberry32 over the low 32 bits of the (int64, decimal string) seed.
  let a = Number(BigInt.asUintN(32, BigInt(seed || "0"))) >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// -- views: complete the incremental history (game-agnostic) -------------------------------------

// Each view carries only the history entries numbered after `history_from` (all of them when
// history_from is 0, e.g. after a reconnect). A bot that wants the whole history keeps it.
function completeHistory(match, decision) {
  const view = decision.view;
  const game = view && view.game; // the name of the oneof member, e.g. "schotten_totten"
  const typed = game ? view[game] : null;
  if (!typed || !Array.isArray(typed.history)) return;
  const from = Number(typed.history_from || 0);
  if (from === 0) {
    match.history = typed.history.slice();
  } else {
    match.history = match.history.filter((e) => e.number <= from).concat(typed.history);
  }
  typed.history = match.history;
  typed.history_from = 0;
}

// -- the session ---------------------------------------------------------------------------------

function statusName(code) {
  return Object.keys(grpc.status).find((k) => grpc.status[k] === code) || String(code);
}

const TRANSIENT = new Set([grpc.status.UNAVAILABLE, grpc.status.INTERNAL, grpc.status.UNKNOWN,
  grpc.status.DEADLINE_EXCEEDED]);
const REFUSED = new Set([grpc.status.UNAUTHENTICATED, grpc.status.PERMISSION_DENIED,
  grpc.status.FAILED_PRECONDITION, grpc.status.RESOURCE_EXHAUSTED]);

class Bot {
  constructor(opts, Service, out) {
    this.opts = opts;
    this.Service = Service;
    this.out = out;
    // One entry per seat: "match_id/role" -> {match_id, role, game, rng, history, decisions}. A bot
    // may hold both seats of a match (self-play); the decision's role tells them apart.
    this.matches = new Map();
    this.results = [];
    this.retries = 0;
  }

  log(event, fields, text) {
    if (this.opts.quiet && event !== "summary") return;
    if (this.opts.json) this.out.log(JSON.stringify({ event, ...fields }));
    else this.out.log(text);
  }

  credentials() {
    if (!this.opts.tls) return grpc.credentials.createInsecure();
    const ca = this.opts.ca ? fs.readFileSync(this.opts.ca) : null;
    return grpc.credentials.createSsl(ca);
  }

  // Resolves with an exit code.
  run() {
    return new Promise((resolve) => {
      this.finish = (code) => {
        if (this.finished) return;
        this.finished = true;
        resolve(code);
      };
      this.connect();
    });
  }

  connect() {
    const client = new this.Service(this.opts.address, this.credentials(), {
      "grpc.keepalive_time_ms": 20000,
      "grpc.max_receive_message_length": 16 << 20,
    });
    const metadata = new grpc.Metadata();
    metadata.set("authorization", `Bearer ${this.opts.token}`);
    const call = client.Play(metadata);
    let done = false;
    const close = () => {
      done = true;
      call.cancel();
      client.close();
    };

    call.on("data", (message) => {
      if (done) return;
      this.retries = 0;
      switch (message.body) {
        case "welcome":
          return this.onWelcome(message.welcome);
        case "match_started":
          return this.onMatchStarted(message.match_started);
        case "decision":
          return this.onDecision(call, message.decision);
        case "match_ended":
          if (this.onMatchEnded(message.match_ended)) {
            close();
            this.summary();
            this.finish(EXIT_OK);
          }
          return;
        case "error":
          return this.onError(message.error);
        default:
          // A message type newer than this bot: ignore it (the protocol only grows).
          return;
      }
    });

    call.on("error", (err) => {
      if (done) return;
      done = true;
      client.close();
      const what = `${statusName(err.code)}: ${err.details || err.message}`;
      if (REFUSED.has(err.code)) {
        const hint = err.code === grpc.status.UNAUTHENTICATED
          ? " (check --token / STANDOFF_TOKEN: a token from `standoff token add NAME`)" : "";
        this.out.error(`standoff node bot: the referee at ${this.opts.address} refused the session: ${what}${hint}`);
        return this.finish(EXIT_REFUSED);
      }
      if (TRANSIENT.has(err.code) && this.retries < this.opts.maxRetries) {
        this.retries += 1;
        const delay = Math.min(5000, 100 * 2 ** this.retries);
        this.out.error(`standoff node bot: session lost (${what}); reconnecting in ${(delay / 1000).toFixed(1)} s`);
        setTimeout(() => this.connect(), delay);
        return;
      }
      this.out.error(`standoff node bot: session failed: ${what}`);
      this.finish(EXIT_FAILED);
    });

    call.on("end", () => {
      // The server closed the session with status OK (shutdown, or a newer session took over).
      if (done) return;
      close();
      this.summary();
      if (this.opts.matches && this.results.length < this.opts.matches) {
        this.out.error(
          `standoff node bot: the server closed the session after ${this.results.length} of ` +
            `${this.opts.matches} matches`
        );
        return this.finish(EXIT_FAILED);
      }
      this.finish(EXIT_OK);
    });

    call.write({
      hello: {
        protocol_version: PROTOCOL_VERSION,
        bot_name: this.opts.name,
        bot_version: BOT_VERSION,
        games: this.opts.games,
        max_concurrent_matches: 1,
      },
    });
  }

  onWelcome(welcome) {
    this.log("welcome", { bot: welcome.bot_name, session: welcome.session_id, server: welcome.server_version,
      resumed: welcome.resumed_match_ids },
    `connected as ${welcome.bot_name} (session ${welcome.session_id}, server ${welcome.server_version})` +
      (welcome.resumed_match_ids.length ? `; resuming ${welcome.resumed_match_ids.join(", ")}` : ""));
  }

  onMatchStarted(started) {
    const key = `${started.match_id}/${started.role}`;
    if (this.matches.has(key)) return; // re-sent after a reconnect
    this.matches.set(key, {
      match_id: started.match_id,
      role: started.role,
      game: started.game,
      rng: rngFromSeed(started.seed),
      history: [],
      decisions: 0,
    });
    const seats = started.seats.map((s) => `${s.role}=${s.bot}`).join(" ");
    this.log("match_started", { match_id: started.match_id, game: started.game, ruleset: started.ruleset,
      role: started.role, seats: started.seats },
    `match ${started.match_id}: ${started.game} (${started.ruleset}) as ${started.role} [${seats}]`);
  }

  onDecision(call, decision) {
    const begin = process.hrtime.bigint();
    const key = `${decision.match_id}/${decision.role}`;
    let match = this.matches.get(key);
    if (!match) {
      // Should not happen (MatchStarted comes first), but a bot must never stall a match.
      match = { match_id: decision.match_id, role: decision.role, game: "", rng: rngFromSeed("0"),
        history: [], decisions: 0 };
      this.matches.set(key, match);
    }
    completeHistory(match, decision); // not needed to play at random; shown for bots that do
    // The whole strategy: a random index among the options. Any game, any step.
    const n = decision.options.length;
    const index = n > 0 ? Math.floor(match.rng() * n) : 0;
    match.decisions += 1;
    const answer = () => {
      const thinkUs = (process.hrtime.bigint() - begin) / 1000n; // ns -> µs
      call.write({
        choice: {
          match_id: decision.match_id,
          decision_id: decision.decision_id, // uint64 as a decimal string: send it back unchanged
          option_index: index,
          think_us: String(thinkUs > 0n ? thinkUs : 1n), // > 0, so the record splits think time from rtt
        },
      });
    };
    // Meanwhile the stream is read on: a MatchEnded that comes first (a shutdown) is taken in.
    if (this.opts.thinkMs > 0) setTimeout(answer, this.opts.thinkMs);
    else answer();
  }

  // Returns true when --matches is reached.
  onMatchEnded(ended) {
    // One MatchEnded per seat: it ends the first seat of ours still open in that match.
    let match = { role: "?", game: "", decisions: 0 };
    for (const [key, seat] of this.matches) {
      if (seat.match_id === ended.match_id) {
        match = seat;
        this.matches.delete(key);
        break;
      }
    }
    const scores = Object.fromEntries(ended.scores.map((s) => [s.role, s.score]));
    const score = scores[match.role];
    const result = !ended.winner ? "draw" : ended.winner === match.role ? "win" : "loss";
    this.results.push({ match_id: ended.match_id, role: match.role, result, score });
    const faults = ended.faults.map((f) => `${f.role}:${f.kind}x${f.count}`).join(" ");
    this.log("match_ended", { match_id: ended.match_id, game: match.game, role: match.role, result,
      winner: ended.winner, score, termination: ended.termination, reason: ended.reason,
      decisions: match.decisions, history_entries: (match.history || []).length, faults: ended.faults },
    `match ${ended.match_id}: ${result} as ${match.role} (${ended.termination}: ${ended.reason})` +
      ` after ${match.decisions} decisions` + (faults ? `; faults ${faults}` : ""));
    return this.opts.matches > 0 && this.results.length >= this.opts.matches;
  }

  onError(error) {
    // A refused choice or a fault notice; the session goes on unless the stream ends.
    this.out.error(
      `standoff node bot: referee error ${error.code}: ${error.message}` +
        (error.match_id ? ` (match ${error.match_id}, decision ${error.decision_id})` : "")
    );
  }

  summary() {
    const count = (r) => this.results.filter((x) => x.result === r).length;
    const wins = count("win"), draws = count("draw"), losses = count("loss");
    const score = this.results.reduce((sum, r) => sum + (r.score || 0), 0);
    this.log("summary", { played: this.results.length, wins, draws, losses, score },
      `played ${this.results.length}: ${wins} won, ${draws} drawn, ${losses} lost (score ${score})`);
  }
}

async function main() {
  let opts;
  let Service;
  try {
    opts = parseArgs(process.argv.slice(2), process.env);
    if (opts.help) {
      console.log(USAGE);
      return EXIT_OK;
    }
    if (!opts.token) {
      throw new UsageError("no token: pass --token or set STANDOFF_TOKEN (see `standoff token add NAME`)",
        { showUsage: false });
    }
    Service = loadProtocol(opts.protoDir);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`standoff node bot: ${err.message}` + (err.showUsage ? `\n\n${USAGE}` : ""));
    return EXIT_USAGE;
  }
  return new Bot(opts, Service, console).run();
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(`standoff node bot: ${err && err.stack ? err.stack : err}`);
      process.exitCode = EXIT_FAILED;
    }
  );
}

module.exports = { parseArgs, loadProtocol, rngFromSeed, completeHistory, Bot };
