// Prints a greeting for each name on the command line, or for the world.
import { greet } from "./greet.ts";

const names = process.argv.slice(2);
for (const name of names.length > 0 ? names : ["world"]) {
  console.log(greet(name));
}
