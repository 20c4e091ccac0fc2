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
  /* Each form offers only the bots of its chosen game (by their folders: nim/greedy.py is
     a Nim bot) and those of no game's folder; a choice that does not fit moves to one that
     does. */
  ["play-form", "watch-form"].forEach((id) => {
    const form = document.getElementById(id);
    if (!form) return;
    const game = form.querySelector("select[name=game]");
    function fit() {
      form.querySelectorAll("select").forEach((select) => {
        let chosen = select.selectedOptions[0];
        select.querySelectorAll("option[data-game]").forEach((o) => {
          o.hidden = o.disabled = o.dataset.game !== "" && o.dataset.game !== game.value;
        });
        if (chosen && chosen.disabled) {
          chosen = [...select.options].find((o) => !o.disabled && o.dataset.game !== undefined) ||
            [...select.options].find((o) => !o.disabled);
          if (chosen) select.value = chosen.value;
        }
      });
    }
    game.addEventListener("change", fit);
    fit();
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
  /* The named variants of the chosen game: choosing one writes its rules tokens into the
     rules field (which still takes any key=value tokens). */
  const variant = document.getElementById("variant");
  const rulesField = document.getElementById("rules");
  function fillVariants() {
    const option = select.options[select.selectedIndex];
    variant.replaceChildren();
    JSON.parse(option.dataset.variants).forEach((v) => {
      const o = document.createElement("option");
      o.value = v.rules;
      o.textContent = v.name + ": " + v.about;
      variant.appendChild(o);
    });
    document.getElementById("game-summary").textContent = option.dataset.summary;
  }
  variant.addEventListener("change", () => { rulesField.value = variant.value; });
  select.addEventListener("change", () => { fillVariants(); rulesField.value = variant.value; explain(); });
  fillVariants();
  explain();
  /* What the chosen opponent does, one sentence (from the server). */
  const opponent = document.getElementById("opponent");
  const opponentHelp = document.getElementById("opponent-help");
  let about = {};
  function describe() {
    const n = opponent.value;
    opponentHelp.textContent = about[n] || about[n.startsWith("level:") ? "level:N" : "bot"] || "";
  }
  opponent.addEventListener("change", describe);
  fetch("/api/games").then((r) => r.json()).then((d) => { about = d.about || {}; describe(); })
    .catch(() => {});
})();
