// Fun default names for guests: "Turbo Pixel", "Sneaky Sprite", ...

const ADJECTIVES = [
  "Turbo", "Sneaky", "Pixel", "Cosmic", "Retro", "Lucky", "Mighty", "Funky", "Jolly", "Speedy",
  "Brave", "Groovy", "Captain", "Sparky", "Zippy", "Rad", "Dizzy", "Clever", "Happy", "Neon",
];
const NOUNS = [
  "Sprite", "Joystick", "Raster", "Floppy", "Datasette", "Blitter", "Byte", "Pixel", "Gopher",
  "Tank", "Wizard", "Goblin", "Comet", "Llama", "Otter", "Badger", "Rocket", "Bandit", "Penguin", "Maze Runner",
];

export function randomName() {
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  let adjective = pick(ADJECTIVES);
  let noun = pick(NOUNS);
  if (adjective === noun) noun = "Sprite";
  return `${adjective} ${noun}`;
}
