// Imported first by every file here that imports @vitest/expect: its matcher messages take their
// colors from tinyrainbow as it loads, and tinyrainbow reads the worker's FORCE_COLOR=0
// (workerProcess.ts) as "force". The worker's text is plain; each reporter colors what it prints.
import { disableDefaultColors } from "tinyrainbow";

disableDefaultColors();
