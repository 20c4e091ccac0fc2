/* The start page: the forms go to /play/GAME and /watch/GAME with the chosen options. */
"use strict";
(function () {
  ["play-form", "watch-form"].forEach((id) => {
    const form = document.getElementById(id);
    if (!form) return;
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const game = data.get("game");
      data.delete("game");
      const q = new URLSearchParams();
      for (const [k, v] of data.entries()) if (v !== "") q.set(k, v);
      const kind = id === "play-form" ? "/play/" : "/watch/";
      location.href = kind + encodeURIComponent(game) + "?" + q.toString();
    });
  });
  document.querySelectorAll("form.open-stored").forEach((form) => {
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      location.href = "/run/" + form.dataset.run + "/game/" + data.get("number") +
        "?move=" + (data.get("move") || "0");
    });
  });
  const select = document.getElementById("game-select");
  const help = document.getElementById("rules-help");
  function explain() {
    const option = select.options[select.selectedIndex];
    const rules = JSON.parse(option.dataset.rules);
    const keys = Object.entries(rules).map(([k, v]) => k + "=" + v).join(" ");
    help.textContent = "Standard start: " + option.dataset.start +
      (keys ? ". Rules and their defaults: " + keys : ". No rule options.");
  }
  select.addEventListener("change", explain);
  explain();
})();
