/**
 * The pages' one script and one style sheet, served from this server so that the pages' Content-Security-Policy
 * allows nothing inline and nothing from elsewhere. The script is a client of the public API: it posts the
 * form, with the link's token, to the route named by the form's `data-endpoint`, and shows the answer's
 * localised message (the browser sends its Accept-Language).
 */
export const FORM_SCRIPT = `"use strict";
(() => {
  const form = document.querySelector("form[data-endpoint]");
  if (!form) return;
  const status = document.getElementById("status");
  const done = document.getElementById("done");
  const button = form.querySelector("button[type=submit]");
  const token = new URLSearchParams(location.search).get("token");
  const say = (text) => { status.textContent = text; };
  if (!token) {
    form.hidden = true;
    say(form.dataset.missing);
    return;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    if (fields.password !== fields.confirm) {
      say(form.dataset.mismatch);
      form.elements.confirm.focus();
      return;
    }
    const body = { token, password: fields.password };
    if (typeof fields.name === "string" && fields.name.trim() !== "") body.name = fields.name.trim();
    button.disabled = true;
    say(form.dataset.working);
    try {
      const res = await fetch(form.dataset.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "omit",
        body: JSON.stringify(body),
      });
      if (res.ok) {
        form.hidden = true;
        say("");
        done.hidden = false;
        done.focus();
        return;
      }
      const error = await res.json().catch(() => null);
      const details = (error && Array.isArray(error.details) ? error.details : []).map((d) => d.message);
      say(error && error.message ? [error.message, ...details].join(" ") : form.dataset.failed);
    } catch {
      say(form.dataset.failed);
    } finally {
      button.disabled = false;
    }
  });
})();
`;

export const FORM_STYLE = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:28rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.5rem;margin:0 0 1rem}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{width:100%;padding:.6rem;font:inherit;border:1px solid #6b6f76;border-radius:4px}
input:focus,button:focus,[tabindex]:focus{outline:3px solid #1d4ed8;outline-offset:2px}
.hint{margin:.25rem 0 0;color:#4a4f57;font-size:.9rem}
button{margin-top:1.5rem;width:100%;padding:.75rem;font:inherit;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:4px;cursor:pointer}
button:disabled{background:#6b6f76}
#status{min-height:1.5rem;margin-top:1rem;color:#a40e26}
#done{padding:1rem;background:#e7f6ec;color:#0f5132;border-radius:4px}
`;
