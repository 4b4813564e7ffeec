// The chai plugins `expect` is made of, in the order Vitest installs them (vitest/dist's test
// chunk): one list, so another part of the test API (snapshot matchers) adds its plugin here.
import "./plainColors.ts";
import { type ChaiPlugin, ChaiStyleAssertions, JestAsymmetricMatchers, JestChaiExpect, JestExtend } from "@vitest/expect";

/**
 * Installed once, in this order, by vitestExpect.ts. Vitest puts its snapshot plugin between
 * ChaiStyleAssertions and JestAsymmetricMatchers; a plugin added here goes there too.
 */
export const chaiPlugins: ChaiPlugin[] = [JestExtend, JestChaiExpect, ChaiStyleAssertions, JestAsymmetricMatchers];
