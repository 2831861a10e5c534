/**
 * "Again on another model": a race member's task queued once more with another --model. The task
 * is the race's prompt as every member was asked; the aliases the race did not use are offered
 * first; a model that is not a model's name, the member's own model, a member that is not there,
 * and a queue of another repository are refused in words.
 */
import { describe, expect, it } from "vitest";
import { addTasks, againModels, againQueueProblem, againTask, newQueue } from "../../../src/core/queue";

const race = {
  prompt: "Make the login page remember the last user name",
  repo: "/work/app",
  base: "main",
  members: [
    { name: "remember-login-1", model: "sonnet" },
    { name: "remember-login-2", model: null },
  ],
};

describe("a race member's task again on another model", () => {
  it("queues the race's prompt, as typed, with the model chosen", () => {
    const task = againTask(race, "remember-login-1", "opus");
    expect(task).toEqual({ text: race.prompt, model: "opus" });
    const queue = addTasks(newQueue(race.repo, race.base, 2), [task]);
    expect(queue.tasks[0]).toMatchObject({ text: race.prompt, model: "opus", state: "waiting" });
  });

  it("offers the aliases the race did not run on first", () => {
    expect(againModels(race)).toEqual(["opus", "haiku", "sonnet"]);
  });

  it("refuses the member's own model, a member that is not there, and a model a command line would read as more", () => {
    expect(() => againTask(race, "remember-login-1", "sonnet")).toThrow("ran on sonnet already");
    expect(() => againTask(race, "remember-login-9", "opus")).toThrow("no member remember-login-9");
    for (const model of ["--dangerously-skip-permissions", "opus; rm -rf ~", "op us", ""])
      expect(() => againTask(race, "remember-login-2", model)).toThrow("A model id or alias");
  });

  it("refuses a queued task whose model is not a model's name, whoever built it", () => {
    expect(() => addTasks(newQueue("/r", "main"), [{ text: "Fix it", model: "-p" }])).toThrow("was not queued: A model id or alias");
  });

  it("joins the queue of the race's repository, or a new one, never a queue of another repository", () => {
    expect(againQueueProblem(null, race)).toBeUndefined();
    expect(againQueueProblem({ repo: "/work/app" }, race)).toBeUndefined();
    expect(againQueueProblem({ repo: "/work/other" }, race)).toMatch(/The queue runs tasks in \/work\/other, and this race is in \/work\/app/);
  });
});
