// The catalog's "Stop this lab" buttons: ask first (the lab's state and recorded baselines are lost), then stop
// the lab through the lab API and say so on the card. Without JavaScript the card links to the lesson instead.
const QUESTION = 'Stop this lab? Whatever you typed and configured in it, and the baselines it recorded for later '
  + 'checks, are lost. A new lab starts from scratch.';

function button(text, className) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (className) b.className = className;
  return b;
}

async function stop(box) {
  const response = await fetch(`/api/labs/${encodeURIComponent(box.dataset.lab)}`, { method: 'DELETE', credentials: 'same-origin' })
    .catch(() => null);
  const note = document.createElement('p');
  note.setAttribute('role', 'status');
  if (response && (response.ok || response.status === 404)) {
    note.textContent = 'Lab stopped.';
  } else {
    const body = response ? await response.json().catch(() => null) : null;
    note.textContent = `The lab was not stopped: ${body?.error || 'the tclab server cannot be reached. Try again.'}`;
  }
  box.replaceChildren(note);
}

function ask(box, stopButton) {
  const confirm = document.createElement('div');
  confirm.className = 'card-lab-confirm';
  confirm.setAttribute('role', 'alertdialog');
  const question = document.createElement('p');
  question.textContent = QUESTION;
  question.id = `card-lab-question-${box.dataset.lab}`;
  confirm.setAttribute('aria-labelledby', question.id);
  const yes = button('Stop and discard the lab', 'card-lab-confirm-stop');
  const no = button('Keep the lab');
  confirm.append(question, yes, no);
  stopButton.hidden = true;
  box.append(confirm);
  no.focus();
  no.addEventListener('click', () => {
    confirm.remove();
    stopButton.hidden = false;
    stopButton.focus();
  });
  yes.addEventListener('click', () => stop(box));
}

for (const box of document.querySelectorAll('.card-lab[data-lab]')) {
  const stopButton = box.querySelector('.card-lab-stop');
  stopButton.addEventListener('click', () => ask(box, stopButton));
}
