// The maker pages' script: while a draft is being read or drafted, it polls the draft's progress
// (the same get_draft the API serves) and updates the line, reloading once the state moves on.
// Without JavaScript the page refreshes itself (a meta refresh inside <noscript>).
export const MAKER_JS = `(function(){
var box=document.querySelector('.progress[data-busy=yes]');
if(!box||!window.fetch)return;
var id=box.getAttribute('data-draft'),status=box.getAttribute('data-status');
function later(ms){setTimeout(tick,ms)}
function tick(){fetch('/me/drafts/'+id+'/progress',{credentials:'same-origin',headers:{accept:'application/json'}}).then(function(r){return r.ok?r.json():null}).then(function(p){
if(!p){later(5000);return}
var t=box.querySelector('.progress-text');if(t&&t.textContent!==p.text)t.textContent=p.text;
if(p.status!==status||!p.busy){location.reload();return}
later(1500)}).catch(function(){later(5000)})}
later(1000);
})();`;
