/**
 * A part that others need before it can be made: the agents and the tools they call need each
 * other (a tool names its agent; an agent is launched with the tools' server). The cycle is made
 * explicit here instead of hidden in closures over names declared further down: the part is bound
 * once, right after it is made, and only read at run time; a read before that is a wiring bug and
 * says which part it was.
 */
export class Late<T> {
  private value: T | undefined;

  constructor(private readonly what: string) {}

  bind(value: T): T {
    if (this.value !== undefined) throw new Error(`${this.what} was bound twice`);
    this.value = value;
    return value;
  }

  get(): T {
    if (this.value === undefined) throw new Error(`${this.what} was used before it was made`);
    return this.value;
  }
}
