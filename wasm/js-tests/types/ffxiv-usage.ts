// arbiter-engine/ffxiv with its types; checked by `tsc -p js-tests/types` (never run).
import { ffxivCards, ffxivNpcs, type FfxivCard, type FfxivCardType, type FfxivNpc } from "arbiter-engine/ffxiv";

export async function strongestOf(npcName: string): Promise<FfxivCard | undefined> {
  const { cards, source } = await ffxivCards();
  const { npcs } = await ffxivNpcs();
  const commit: string = source.commit;
  const npc: FfxivNpc | undefined = npcs.find((n) => n.name.en === npcName || n.name.fr === npcName);
  if (!npc || !commit) return undefined;
  const type: FfxivCardType = cards[0]!.type;
  // @ts-expect-error: not a card type
  const wrong: FfxivCardType = "fire";
  void wrong;
  const sum = (c: FfxivCard) => c.ranks.reduce((a, b) => a + b, 0);
  return [...npc.fixed, ...npc.variable]
    .map((id) => cards.find((c) => c.id === id && c.type !== type))
    .filter((c): c is FfxivCard => c !== undefined)
    .sort((a, b) => sum(b) - sum(a))[0];
}
