// The first thing dist/server.js does (server/start.ts imports this module first): owns the process
// tree and forks the language server's first worker, before the rest of the server is compiled and
// evaluated (the pool and TypeBox, then the server itself), so the worker's own start overlaps all of it.
import { endOnSignals, ownProcessTree } from "../core/execution/processTree.ts";
import { forkServerWorker, handOverFirstWorker } from "./serverWorker.ts";
import { markStart, startMarks } from "./startTimeline.ts";

// Nothing outlives the server: its workers and what their tests spawned are killed when it exits
// (an `exit` notification with or without `shutdown`, stdin closing) or is sent SIGTERM, SIGINT or
// SIGHUP; a SIGKILL is noticed by each worker's parent watch. Before the fork: the worker inherits the tag.
ownProcessTree();
endOnSignals();

const child = forkServerWorker();
markStart("worker forked");
handOverFirstWorker({ child, marks: startMarks() });
