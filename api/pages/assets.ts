import { etagOf } from '../http/execute.ts';
import { MAKER_JS } from './maker-script.ts';

// One small stylesheet and one small script, served by us (the CSP allows 'self' only). The script
// only improves forms that already work without it: it posts them with fetch and updates the
// button in place instead of reloading the page.
const CSS = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:#1b1b1f;background:#fafafa}
a{color:#0645ad}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;background:#1b1b1f;color:#fff}
header.top a{color:#fff}.brand{font-weight:700;font-size:1.15rem;text-decoration:none}
header.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem .9rem;list-style:none;margin:0;padding:0}header.top [aria-current=page]{text-decoration:underline 2px}
.account{margin-left:auto;font-size:.9rem}.who{opacity:.85}
main{max-width:60rem;margin:0 auto;padding:1rem}footer{max-width:60rem;margin:2rem auto;padding:1rem;border-top:1px solid #ddd;font-size:.9rem;color:#4a4a52}
h1{font-size:1.8rem;line-height:1.2;margin:.5rem 0}h2{font-size:1.3rem;margin-top:2rem}.lede{font-size:1.1rem;color:#33333a}
.meta{color:#55555e;font-size:.9rem;margin:.2rem 0}.empty{color:#55555e;font-style:italic}.text{white-space:pre-line;overflow-wrap:anywhere}
.cards{list-style:none;padding:0;margin:0;display:grid;gap:.6rem}.card{display:flex;gap:.75rem;background:#fff;border:1px solid #e2e2e6;border-radius:8px;padding:.75rem}
.card h3{margin:0;font-size:1.05rem}.card p{margin:.15rem 0}.card-body{min-width:0;overflow-wrap:anywhere}.rank{font-weight:700;color:#55555e;min-width:2.2rem}
.tag{display:inline-block;font-size:.75rem;border:1px solid #888;border-radius:4px;padding:0 .3rem;vertical-align:middle;color:#33333a;background:#fff}
.paid-note{background:#fff4d6;border:1px solid #d9a400;padding:.6rem;border-radius:6px}
.tabs,.chips{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0}.tabs a,.chips li{display:inline-block;padding:.2rem .6rem;border:1px solid #ccc;border-radius:999px;background:#fff}
.tabs [aria-current=page]{background:#1b1b1f;color:#fff}
.pager{display:flex;gap:1rem;align-items:center;margin:1rem 0}.crumbs ol{display:flex;flex-wrap:wrap;list-style:none;padding:0;gap:.3rem;font-size:.9rem}.crumbs li+li::before{content:"/ ";color:#888}
.listing-head{display:flex;gap:1rem;align-items:flex-start}.logo{border-radius:12px;background:#fff;border:1px solid #e2e2e6;flex:none}
.card-logo{width:40px;height:40px;border-radius:8px;flex:none;background:#fff}.px{position:absolute;width:1px;height:1px;opacity:0}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}.actions form{margin:0}
button,.button{font:inherit;display:inline-block;padding:.45rem .9rem;border-radius:6px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#0b5cad}button.on{background:#0a4a8a;color:#fff}button.link{background:none;border:0;color:#0645ad;padding:0;text-decoration:underline;font-size:.85rem}
.count{font-weight:700;margin-left:.3rem}label{display:block;font-weight:600;margin:.5rem 0 .2rem}label.inline{display:inline-block;margin-right:.8rem;font-weight:400}
input,select,textarea{font:inherit;padding:.35rem;max-width:100%;border:1px solid #888;border-radius:4px}textarea{width:100%}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.5rem .8rem;align-items:end;background:#fff;border:1px solid #e2e2e6;padding:.6rem;border-radius:8px}.filters label{margin:0 0 .2rem}.field input,.field select{width:100%}.filters button{margin:0;justify-self:start}
fieldset{border:1px solid #ccc;border-radius:6px}.reviews{list-style:none;padding:0}.reviews li{border-bottom:1px solid #e2e2e6;padding:.4rem 0}.stars{color:#8a5a00}
.badges{list-style:none;padding:0;display:grid;gap:1rem}.badges img{max-width:100%;height:auto}.embed{font:12px/1.4 ui-monospace,monospace}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.facts dd{margin:0}.faq dt{font-weight:600;margin-top:.6rem}.faq dd{margin:0}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #e2e2e6;padding:.35rem;text-align:left;vertical-align:top}
.prose{overflow-wrap:anywhere}.prose pre{overflow-x:auto}.media{list-style:none;padding:0}.media img{max-width:100%;height:auto}.products{list-style:none;padding:0}.price{font-weight:700}
.history{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;padding:0;font-size:.9rem}
@media (max-width:600px){h1{font-size:1.45rem}.account{margin-left:0}}`;

const JS = `(function(){
function post(form){var data=new URLSearchParams(new FormData(form));return fetch(form.action,{method:'POST',body:data,headers:{accept:'application/json','content-type':'application/x-www-form-urlencoded'},credentials:'same-origin'}).then(function(r){return r.json().then(function(j){return{ok:r.ok,status:r.status,body:j}})})}
function status(form,text){var box=form.closest('.actions,.review-form');var s=box&&box.querySelector('.status');if(s)s.textContent=text}
function toggle(form,on,count,onText,offText){var b=form.querySelector('button');form.querySelector('input[name=do]').value=on?'remove':'add';b.setAttribute('aria-pressed',on?'true':'false');b.classList.toggle('on',on);b.firstChild.nodeValue=(on?onText:offText)+' ';b.querySelector('.count').textContent=count.toLocaleString('en-US')}
document.addEventListener('submit',function(e){var form=e.target;var kind=form.getAttribute&&form.getAttribute('data-action');if(!kind||!window.fetch)return;e.preventDefault();
post(form).then(function(r){if(r.status===401&&r.body.sign_in){location.href=r.body.sign_in;return}if(!r.ok){status(form,r.body.message||'That did not work. Please reload the page and try again.');return}
var s=r.body;if(kind==='vote'){toggle(form,s.voted,s.votes,'Voted','Upvote');status(form,s.voted?'Vote counted.':'Vote removed.')}
else if(kind==='follow'){toggle(form,s.following,s.follows,'Following','Follow');status(form,s.following?'Following.':'No longer following.')}
else if(kind==='review'){status(form,'Review saved.')}else if(kind==='flag'){form.textContent='Flagged. Thank you.'}}).catch(function(){form.submit()})});
document.querySelectorAll('button.copy').forEach(function(b){b.hidden=false;b.addEventListener('click',function(){var t=document.getElementById(b.getAttribute('data-copy'));t.select();if(navigator.clipboard)navigator.clipboard.writeText(t.value);b.textContent='Copied'})});
})();`;

const asset = (body: string, type: string) => ({ body, type, etag: etagOf(body) });
export const ASSETS: Record<string, { body: string; type: string; etag: string }> = {
  'site.css': asset(CSS, 'text/css; charset=utf-8'),
  'site.js': asset(JS, 'text/javascript; charset=utf-8'),
  'maker.js': asset(MAKER_JS, 'text/javascript; charset=utf-8'),
};
