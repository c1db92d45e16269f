// Opened from file://, browsers refuse the page's module script (app.js), and the page would say
// "Loading the history…" for ever. This classic script still runs there, and says how to serve it.
if (location.protocol === 'file:') {
  var main = document.getElementById('main');
  if (main) {
    var p = document.createElement('p');
    p.className = 'error file-hint';
    p.setAttribute('role', 'alert');
    var code = document.createElement('code');
    code.textContent = 'npx bee-bench site --history <this folder>';
    p.append('This page needs a web server (browsers do not run its script from a file): run ', code, ' and open the URL it prints.');
    main.replaceChildren(p);
  }
}
