// Copy buttons of command blocks. Everything else on the lesson page works without this script.
for (const button of document.querySelectorAll('button.cmd-copy')) {
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.command);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  });
}
