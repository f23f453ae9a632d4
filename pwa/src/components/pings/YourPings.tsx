/**
 * Home's 'Your Pings' grid: the first 4 default prompts and a 'Custom Ping' tile. A tile shows
 * its emoji, its text (2 lines) and how many friends can receive it: every friend for a default
 * prompt (docs/pwa.md, "Ping flow"). Tapping a prompt opens the send dialog.
 */
import { DEFAULT_PROMPT_EMOJI, LIMITS, tileColorIndex, type Prompt } from '@pingme/shared';
import { useState } from 'react';
import { useSession } from '../../stores';
import { CustomPingDialog } from '../../dialogs/CustomPingDialog';
import { SendPromptDialog } from '../../dialogs/SendPromptDialog';
import { useFriendList, useHomePrompts } from './usePings';
import '../../styles/pings.css';

export function friendCountLabel(n: number): string {
  return `${n} ${n === 1 ? 'friend' : 'friends'}`;
}

/** Default prompts can go to every friend; a custom prompt to the friends it is assigned to. */
export function promptFriendCount(prompt: Prompt, friendCount: number): number {
  return prompt.isDefault ? friendCount : prompt.assignments.length;
}

export function YourPings() {
  const me = useSession((s) => s.user);
  const prompts = useHomePrompts(LIMITS.homeDefaultPrompts);
  const friends = useFriendList() ?? [];
  const [chosen, setChosen] = useState<Prompt | null>(null);
  const [custom, setCustom] = useState(false);
  if (!me) return null;

  return (
    <section className="your-pings" aria-labelledby="your-pings-title">
      <h2 id="your-pings-title" className="pings-section__title">
        Your Pings
      </h2>
      <ul className="ping-tiles">
        {prompts === undefined &&
          [0, 1, 2, 3].map((i) => (
            <li key={i} className="ping-tile ping-tile--loading" aria-hidden="true" />
          ))}
        {prompts?.map((p) => (
          <PingTile
            key={p.id}
            look={`ping-tile--c${tileColorIndex(p.id)}`}
            emoji={p.emoji || DEFAULT_PROMPT_EMOJI}
            text={p.text}
            detail={friendCountLabel(promptFriendCount(p, friends.length))}
            onClick={() => setChosen(p)}
          />
        ))}
        <PingTile
          look="ping-tile--custom"
          emoji="✏️"
          text="Custom Ping"
          detail="Write your own"
          onClick={() => setCustom(true)}
        />
      </ul>
      <SendPromptDialog
        prompt={chosen}
        me={me}
        friends={friends}
        onOpenChange={(open) => !open && setChosen(null)}
      />
      <CustomPingDialog open={custom} me={me} friends={friends} onOpenChange={setCustom} />
    </section>
  );
}

/** One tile of the grid: its emoji, its text (2 lines) and a line under it. */
export function PingTile(props: {
  /** The tile's colour class. */
  look: string;
  emoji: string;
  text: string;
  detail: string;
  onClick(): void;
}) {
  return (
    <li>
      <button type="button" className={`ping-tile ${props.look}`} onClick={props.onClick}>
        <span className="ping-tile__emoji" aria-hidden="true">
          {props.emoji}
        </span>
        <span className="ping-tile__text">{props.text}</span>
        <span className="ping-tile__count">{props.detail}</span>
      </button>
    </li>
  );
}
