// The catalog's "Stop this lab" buttons: ask first (the lab's state and recorded baselines are lost), then stop
// the lab through the lab API and say so on the card. Without JavaScript the card links to the lesson instead.
import { stopLab } from '../api.js';
import { el } from '../dom.js';
const QUESTION = 'Stop this lab? Whatever you typed and configured in it, and the baselines it recorded for later '
  + 'checks, are lost. A new lab starts from scratch.';

function button(text, className) {
  const b = el('button', className, text);
  b.type = 'button';
  return b;
}

async function stop(box) {
  let text = 'Lab stopped.';
  try {
    await stopLab(box.dataset.lab);
  } catch (e) {
    text = `The lab was not stopped: ${e.message}`;
  }
  const note = el('p', null, text);
  note.setAttribute('role', 'status');
  box.replaceChildren(note);
}

function ask(box, stopButton) {
  const confirm = el('div', 'card-lab-confirm');
  confirm.setAttribute('role', 'alertdialog');
  const question = el('p', null, QUESTION);
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
