/**
 * The Ping Library (/pings): the person's prompts then the defaults; create a custom prompt,
 * assign it to a friend, send it, delete it; the spec's messages on the way.
 */
import { describe, expect, it } from 'vitest';
import { LibraryPage } from './pages/library-page';
import { seriousA11yProblems } from './support/axe';
import { artifact, newPage } from './support/browser';
import { befriend, call, eventually, person, receivedPings, signInPage } from './support/people';

const RAINBOW = 'Ping me when you see a rainbow';

interface PromptJson {
  id: string;
  text: string;
  emoji: string;
  assignments: { friendId: string }[];
}

describe('Ping Library', () => {
  it('creates a custom prompt, assigns it to a friend, sends it, and deletes it', async () => {
    const [ada, bo] = await Promise.all([person('Ada', 'Library'), person('Bo', 'Reader')]);
    await befriend(ada, bo);
    const myPrompts = async () => (await call<PromptJson[]>(ada, 'GET', '/api/prompts/user')).body;

    const page = await newPage();
    await signInPage(page, ada);
    const library = new LibraryPage(page);
    await library.open();
    await library.row('Ping me when you need a hug').waitFor();
    const hug = library.row('Ping me when you need a hug');
    await hug.getByText('Default prompt').waitFor();
    expect(await library.action('Ping me when you need a hug', 'Delete').count()).toBe(0);

    // Create: the text is required; then the prompt shows at once, first in the list.
    await library.newPrompt.click();
    await library.dialog.getByRole('heading', { name: 'Create New Ping Prompt' }).waitFor();
    await library.dialog.getByRole('button', { name: 'Create Prompt' }).click();
    await library.dialog.getByText('Please enter a prompt message.').waitFor();
    await library.toast.filter({ hasText: 'Invalid Prompt' }).waitFor();
    expect(await seriousA11yProblems(page)).toEqual([]);
    await library.dialog.getByRole('textbox', { name: 'Prompt message' }).fill(RAINBOW);
    await library.dialog.getByRole('textbox', { name: 'Emoji (optional)' }).fill('🌈');
    await library.dialog.getByRole('button', { name: 'Create Prompt' }).click();
    await library.dialog.waitFor({ state: 'detached' });
    const row = library.custom.getByRole('listitem').filter({ hasText: RAINBOW });
    await row.getByText('Custom prompt').waitFor();
    const created = await eventually(myPrompts, (p) => p.some((x) => x.text === RAINBOW));
    expect(created.find((p) => p.text === RAINBOW)?.emoji).toBe('🌈');
    await row.getByText('Saving…').waitFor({ state: 'detached' });

    // Assign: at least one friend; one POST per friend; the row lists them.
    await library.action(RAINBOW, 'Assign').click();
    await library.dialog.getByRole('button', { name: /^Assign/ }).click();
    await library.dialog
      .getByText('Please select at least one friend to assign this prompt to.')
      .waitFor();
    await library.dialog.getByRole('checkbox', { name: 'Bo Reader' }).check();
    await library.dialog.getByRole('button', { name: 'Assign (1)' }).click();
    await library.dialog.waitFor({ state: 'detached' });
    await library.toast.filter({ hasText: 'Prompt assigned!' }).waitFor();
    await row.getByRole('button', { name: 'Assigned to 1 friend' }).click();
    await row.getByRole('list').getByText('Bo Reader').waitFor();
    await eventually(myPrompts, (p) =>
      p.some((x) => x.text === RAINBOW && x.assignments.some((a) => a.friendId === bo.id)),
    );
    await page.screenshot({ path: artifact('library.png') });
    await page.screenshot({ path: artifact('library-full.png'), fullPage: true });
    expect(await seriousA11yProblems(page)).toEqual([]);

    // Send: one friend must be chosen; the friend receives it.
    await library.action(RAINBOW, 'Send').click();
    await library.dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await library.dialog.getByText('Please select a friend to send the ping to.').waitFor();
    await library.dialog.getByRole('radio', { name: 'Bo Reader' }).check();
    await page.screenshot({ path: artifact('library-send.png') });
    expect(await seriousA11yProblems(page)).toEqual([]);
    await library.dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await library.toast.filter({ hasText: 'Pings sent! 🎉' }).waitFor();
    await library.toast.filter({ hasText: `Sent "${RAINBOW}" to your friend` }).waitFor();
    const got = await eventually(
      () => receivedPings(bo),
      (pings) => pings.some((p) => p.prompt?.text === RAINBOW),
    );
    expect(got[0]).toMatchObject({ kind: 'prompt', senderId: ada.id });

    // Delete, after a confirmation.
    await library.action(RAINBOW, 'Delete').click();
    await library.dialog.getByRole('heading', { name: 'Delete this prompt?' }).waitFor();
    await library.dialog.getByRole('button', { name: 'Delete' }).click();
    await library.toast.filter({ hasText: 'Prompt deleted successfully!' }).waitFor();
    await row.waitFor({ state: 'detached' });
    await eventually(myPrompts, (p) => !p.some((x) => x.text === RAINBOW));
    expect(await library.custom.count()).toBe(0);
  });

  it('edits a custom prompt: the new text shows at once and the server has it; defaults have no Edit', async () => {
    const ada = await person('Ada', 'Editor');
    const created = await call<PromptJson>(ada, 'POST', '/api/prompts', {
      text: RAINBOW,
      emoji: '🌈',
    });
    expect(created.status).toBe(201);
    const page = await newPage();
    await signInPage(page, ada);
    const library = new LibraryPage(page);
    await library.open();
    await library.row(RAINBOW).waitFor();
    expect(await library.action('Ping me when you need a hug', 'Edit').count()).toBe(0);

    await library.action(RAINBOW, 'Edit').click();
    await library.dialog.getByRole('heading', { name: 'Edit Ping Prompt' }).waitFor();
    const field = library.dialog.getByRole('textbox', { name: 'Prompt message' });
    expect(await field.inputValue()).toBe(RAINBOW);
    await page.screenshot({ path: artifact('library-edit-prompt.png') });
    await library.dialog.getByRole('button', { name: 'Cancel' }).click();

    const DOUBLE = 'Ping me when you see a double rainbow';
    await library.edit(RAINBOW, DOUBLE);
    await library.toast.filter({ hasText: 'Prompt updated!' }).waitFor();
    await library.custom.getByText(DOUBLE, { exact: true }).waitFor();
    expect(await library.custom.getByText(RAINBOW, { exact: true }).count()).toBe(0);
    await expect
      .poll(async () =>
        (await call<PromptJson[]>(ada, 'GET', '/api/prompts/user')).body.map((p) => [
          p.id,
          p.text,
          p.emoji,
        ]),
      )
      .toEqual([[created.body.id, DOUBLE, '🌈']]);
  });
});
