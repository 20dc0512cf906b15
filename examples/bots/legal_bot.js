#!/usr/bin/env node
// A Spoiler bot in JavaScript (Node.js, no packages), speaking spoiler-bot/1 (docs/bots.md).
//
//     spoiler play --bot "exec:node examples/bots/legal_bot.js"
//
// It reads one JSON object per line and answers each with one line: the first legal
// selection that targets someone else, else the first legal one; a question's last option.
"use strict";
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  let reply = null;
  if (message.type === "hello") {
    reply = { name: "legal-bot.js" };
  } else if (message.type === "select") {
    const me = message.view.seat;
    const legal = message.legal;
    reply = legal.find((s) => s.targets.length > 0 && !s.targets.includes(me)) || legal[0];
  } else if (message.type === "answer") {
    const options = message.question.options;
    reply = { answer: options[options.length - 1] };
  }
  if (reply !== null) {
    process.stdout.write(JSON.stringify(reply) + "\n");
  }
});
