import type { Category } from '../../wallpapers/categories.js';

/** Word lists a category's titles and descriptions are assembled from. */
export interface CategoryVocabulary {
  /** Relative popularity: how often the category is drawn. */
  popularity: number;
  /** What kind of picture it is, for descriptions ("photograph", "illustration"). */
  media: readonly string[];
  adjectives: readonly string[];
  subjects: readonly string[];
  /** Title-cased phrases that follow a subject: "at Dawn", "over the Valley". */
  settings: readonly string[];
  /** Lower-case clauses that finish a description sentence. */
  details: readonly string[];
}

export const VOCABULARY: Readonly<Record<Category, CategoryVocabulary>> = {
  nature: {
    popularity: 14,
    media: ['photograph', 'long-exposure shot', 'wide-angle photo'],
    adjectives: ['Misty', 'Quiet', 'Golden', 'Mossy', 'Sunlit', 'Foggy', 'Wild', 'Autumn', 'Frosted', 'Lush', 'Ancient', 'Hidden'],
    subjects: ['Pine Forest', 'Birch Grove', 'Waterfall', 'Meadow', 'Fern Valley', 'River Bend', 'Oak Tree', 'Bamboo Grove', 'Forest Path', 'Wildflower Field', 'Creek', 'Redwoods'],
    settings: ['at Dawn', 'at Dusk', 'in the Rain', 'after the Storm', 'in Early Spring', 'in Late Autumn', 'under Morning Fog', 'at First Light', 'in Winter', 'at Golden Hour'],
    details: ['with soft fog drifting between the trees', 'where the light breaks through the canopy', 'with dew still clinging to every leaf', 'framed by tall trunks on either side', 'with a narrow trail leading into the distance', 'in deep, saturated greens'],
  },
  landscapes: {
    popularity: 12,
    media: ['photograph', 'panorama', 'aerial photo'],
    adjectives: ['Rolling', 'Rugged', 'Snowy', 'Vast', 'Windswept', 'Serene', 'Golden', 'Remote', 'Towering', 'Desolate', 'Glowing', 'Silent'],
    subjects: ['Mountain Range', 'Desert Dunes', 'Alpine Lake', 'Canyon', 'Highlands', 'Glacier', 'Valley', 'Volcano', 'Fjord', 'Tundra', 'Hills', 'Plateau'],
    settings: ['at Sunrise', 'at Sunset', 'under the Milky Way', 'in Iceland', 'in Patagonia', 'in the Dolomites', 'after Snowfall', 'beneath Storm Clouds', 'in Summer', 'at Blue Hour'],
    details: ['with layers of peaks fading into haze', 'under a sky streaked with pink cloud', 'with a lone road winding through it', 'reflected perfectly in still water', 'with long shadows stretching across the ground', 'seen from a high ridge'],
  },
  space: {
    popularity: 9,
    media: ['render', 'telescope image', 'digital painting'],
    adjectives: ['Distant', 'Glowing', 'Spiral', 'Cosmic', 'Violet', 'Frozen', 'Burning', 'Silent', 'Ringed', 'Starlit', 'Deep', 'Shattered'],
    subjects: ['Nebula', 'Galaxy', 'Planet', 'Moon', 'Star Cluster', 'Black Hole', 'Comet', 'Asteroid Belt', 'Aurora', 'Eclipse', 'Space Station', 'Exoplanet'],
    settings: ['in Deep Space', 'beyond Saturn', 'over the Earth', 'at the Edge of the Galaxy', 'from Orbit', 'in the Andromeda Sector', 'behind the Moon', 'at Light Speed'],
    details: ['set against a field of countless stars', 'with clouds of dust lit from within', 'in shades of violet and teal', 'with a thin atmosphere catching the light', 'surrounded by drifting debris', 'with the sun just cresting the horizon'],
  },
  anime: {
    popularity: 9,
    media: ['illustration', 'anime-style artwork', 'digital painting'],
    adjectives: ['Lonely', 'Dreamy', 'Neon', 'Rainy', 'Nostalgic', 'Summer', 'Twilight', 'Cherry Blossom', 'Quiet', 'Starry', 'Windy', 'Sleepy'],
    subjects: ['Rooftop', 'Train Station', 'Schoolyard', 'Shrine', 'Street Corner', 'Classroom', 'Seaside Town', 'Bridge', 'Convenience Store', 'Hilltop', 'Bedroom Window', 'Festival'],
    settings: ['after School', 'at Dusk', 'in the Rain', 'on a Summer Night', 'under Falling Petals', 'before the Last Train', 'at Midnight', 'in Early Spring'],
    details: ['with a girl watching the clouds go by', 'with paper lanterns glowing overhead', 'with power lines cutting across a painted sky', 'in soft pastel colours', 'with reflections shimmering on wet pavement', 'with a cat asleep in the corner'],
  },
  abstract: {
    popularity: 8,
    media: ['render', 'digital artwork', 'generative piece'],
    adjectives: ['Fluid', 'Geometric', 'Liquid', 'Fractured', 'Flowing', 'Holographic', 'Layered', 'Pastel', 'Vibrant', 'Soft', 'Chromatic', 'Woven'],
    subjects: ['Waves', 'Gradient', 'Shapes', 'Lines', 'Marble', 'Prism', 'Ribbons', 'Polygons', 'Smoke', 'Paint Swirls', 'Glass', 'Noise Field'],
    settings: ['in Motion', 'in Blue', 'in Orange and Teal', 'on Black', 'in Rose Gold', 'in Monochrome', 'in Neon', 'at Rest'],
    details: ['with smooth transitions between colours', 'with sharp edges catching the light', 'layered over a dark background', 'in a balanced, calm composition', 'with fine grain for texture', 'that stays readable behind desktop icons'],
  },
  cars: {
    popularity: 7,
    media: ['photograph', 'studio shot', 'render'],
    adjectives: ['Classic', 'Vintage', 'Matte Black', 'Red', 'Electric', 'Rally', 'Lowered', 'Chrome', 'Midnight Blue', 'Restored', 'Racing', 'Silver'],
    subjects: ['Sports Car', 'Muscle Car', 'Roadster', 'Coupe', 'Hypercar', 'Pickup Truck', 'Convertible', 'Rally Car', 'Grand Tourer', 'Hatchback', 'Race Car', 'Camper Van'],
    settings: ['on a Mountain Road', 'in the Garage', 'at Night', 'on the Track', 'in the Desert', 'under Neon Lights', 'on the Coast Road', 'in the Rain'],
    details: ['with light trails streaking behind it', 'parked under a single street lamp', 'with dust kicked up from the rear wheels', 'with every curve of the bodywork lit', 'against a wet, reflective road', 'framed low and wide'],
  },
  cityscapes: {
    popularity: 7,
    media: ['photograph', 'long-exposure shot', 'aerial photo'],
    adjectives: ['Neon', 'Rainy', 'Foggy', 'Glittering', 'Sleepless', 'Empty', 'Crowded', 'Old', 'Modern', 'Snowy', 'Golden', 'Electric'],
    subjects: ['Skyline', 'Harbour', 'Downtown', 'Alleyway', 'Bridge', 'Rooftops', 'Old Town', 'Boulevard', 'Canal', 'Market Street', 'Intersection', 'Waterfront'],
    settings: ['at Night', 'at Blue Hour', 'in Tokyo', 'in New York', 'in Hong Kong', 'in Paris', 'in Lisbon', 'after the Rain', 'at Sunrise', 'in Winter'],
    details: ['with thousands of windows still lit', 'with traffic blurred into ribbons of light', 'reflected in the river below', 'seen from a rooftop high above the street', 'with steam rising from the street', 'with fog swallowing the tallest towers'],
  },
  animals: {
    popularity: 7,
    media: ['photograph', 'close-up shot', 'wildlife photo'],
    adjectives: ['Curious', 'Sleepy', 'Majestic', 'Playful', 'Wild', 'Snowy', 'Young', 'Proud', 'Lone', 'Gentle', 'Fierce', 'Tiny'],
    subjects: ['Fox', 'Wolf', 'Owl', 'Tiger', 'Red Panda', 'Deer', 'Lion', 'Kitten', 'Puppy', 'Eagle', 'Hummingbird', 'Snow Leopard'],
    settings: ['in the Snow', 'at Dawn', 'in Tall Grass', 'in the Forest', 'on the Savanna', 'by the River', 'in the Rain', 'at Sunset'],
    details: ['looking straight into the lens', 'with its eyes in sharp focus', 'against a soft, blurred background', 'caught mid-stride', 'with warm light on its fur', 'resting after the hunt'],
  },
  minimalist: {
    popularity: 6,
    media: ['design', 'illustration', 'vector artwork'],
    adjectives: ['Simple', 'Clean', 'Quiet', 'Muted', 'Flat', 'Lonely', 'Soft', 'Calm', 'Pale', 'Bold', 'Sparse', 'Still'],
    subjects: ['Mountain', 'Sun', 'Moon', 'Tree', 'Lighthouse', 'Horizon', 'Circle', 'Wave', 'Island', 'Boat', 'Desert', 'Bird'],
    settings: ['on Beige', 'in Pastel', 'at Dusk', 'in Black and White', 'on Navy', 'at Noon', 'in Fog', 'on Sand'],
    details: ['with plenty of empty space for icons', 'in two or three flat colours', 'built from a handful of simple shapes', 'with nothing to distract from the subject', 'in a muted, earthy palette', 'that stays calm on a busy screen'],
  },
  fantasy: {
    popularity: 6,
    media: ['digital painting', 'concept art', 'illustration'],
    adjectives: ['Enchanted', 'Forgotten', 'Floating', 'Haunted', 'Crystal', 'Ancient', 'Burning', 'Mystic', 'Elven', 'Sunken', 'Cursed', 'Hidden'],
    subjects: ['Castle', 'Dragon', 'Forest', 'Citadel', 'Tower', 'Kingdom', 'Ruins', 'Wizard', 'Knight', 'Portal', 'Sky Island', 'Temple'],
    settings: ['at Twilight', 'in the Clouds', 'beyond the Mountains', 'under Two Moons', 'in the Mist', 'at the End of the World', 'beneath the Waves', 'in Eternal Winter'],
    details: ['with glowing runes carved into the stone', 'with a lone traveller approaching the gate', 'with waterfalls spilling into the void', 'lit by drifting embers', 'with banners torn by the wind', 'in rich, painterly colours'],
  },
  games: {
    popularity: 6,
    media: ['in-game screenshot', 'key art', 'fan render'],
    adjectives: ['Retro', 'Pixel', 'Cyberpunk', 'Post-Apocalyptic', 'Arcade', 'Open-World', 'Low-Poly', 'Neon', 'Dark', 'Heroic', 'Stealthy', 'Cozy'],
    subjects: ['Hero', 'Battlefield', 'Dungeon', 'Racer', 'Spaceship', 'Village', 'Arena', 'Boss Fight', 'Controller', 'Mech', 'Farm', 'Castle Level'],
    settings: ['at Night', 'in the Wasteland', 'in Neon City', 'on Level One', 'in the Final Stage', 'under Fire', 'in the Overworld', 'at Sunset'],
    details: ['with a HUD-free view of the scene', 'in chunky, colourful pixels', 'with sparks and smoke filling the frame', 'captured in photo mode', 'with the main character seen from behind', 'with dramatic, high-contrast lighting'],
  },
  ocean: {
    popularity: 5,
    media: ['photograph', 'underwater photo', 'aerial photo'],
    adjectives: ['Turquoise', 'Stormy', 'Calm', 'Crashing', 'Endless', 'Crystal', 'Deep Blue', 'Tropical', 'Frozen', 'Wild', 'Glassy', 'Moonlit'],
    subjects: ['Waves', 'Coral Reef', 'Lagoon', 'Lighthouse', 'Beach', 'Cliffs', 'Sea Turtle', 'Whale', 'Jellyfish', 'Shoreline', 'Sea Stack', 'Surf'],
    settings: ['at Sunset', 'at Low Tide', 'in the Maldives', 'off the Coast', 'after the Storm', 'at Dawn', 'under the Surface', 'at High Tide'],
    details: ['with sunlight rippling through the water', 'with white foam tracing the shore', 'seen from directly above', 'with the horizon cutting the frame in half', 'in clear, glassy water', 'with spray frozen in mid-air'],
  },
  architecture: {
    popularity: 4,
    media: ['photograph', 'symmetrical shot', 'detail photo'],
    adjectives: ['Brutalist', 'Gothic', 'Modern', 'Spiral', 'Glass', 'Concrete', 'Baroque', 'Curved', 'Minimal', 'Ornate', 'Abandoned', 'Soaring'],
    subjects: ['Staircase', 'Cathedral', 'Tower', 'Library', 'Facade', 'Bridge', 'Atrium', 'Museum', 'Dome', 'Archway', 'Pavilion', 'Courtyard'],
    settings: ['from Below', 'at Night', 'in Soft Light', 'in Barcelona', 'in Berlin', 'at Noon', 'in Winter Light', 'in Symmetry'],
    details: ['with clean lines converging at the centre', 'with light pouring through tall windows', 'shot straight up for perfect symmetry', 'in cool, neutral tones', 'with a single figure for scale', 'with deep shadows across the stone'],
  },
  flowers: {
    popularity: 4,
    media: ['macro photograph', 'close-up shot', 'photograph'],
    adjectives: ['Blooming', 'Delicate', 'Wild', 'Pink', 'White', 'Purple', 'Dewy', 'Pressed', 'Spring', 'Faded', 'Vivid', 'Tiny'],
    subjects: ['Cherry Blossoms', 'Tulips', 'Lavender', 'Sunflowers', 'Peonies', 'Roses', 'Daisies', 'Lotus', 'Poppies', 'Orchid', 'Magnolia', 'Hydrangeas'],
    settings: ['in Spring', 'in the Morning Dew', 'in a Field', 'on Black', 'at Golden Hour', 'after the Rain', 'in the Garden', 'in Soft Focus'],
    details: ['with petals in sharp focus', 'with a creamy, out-of-focus background', 'with droplets catching the light', 'stretching to the horizon', 'in soft pastel tones', 'with a bee visiting the centre'],
  },
  technology: {
    popularity: 4,
    media: ['render', 'macro photograph', 'digital artwork'],
    adjectives: ['Glowing', 'Circuit', 'Digital', 'Holographic', 'Quantum', 'Binary', 'Neon', 'Minimal', 'Futuristic', 'Wireframe', 'Dark', 'Retro'],
    subjects: ['Circuit Board', 'Server Room', 'Microchip', 'Keyboard', 'Data Stream', 'Neural Network', 'Robot', 'Terminal', 'Motherboard', 'Fibre Optics', 'Drone', 'Code'],
    settings: ['in Blue', 'at Night', 'in the Dark', 'in Close-Up', 'in Green Light', 'in Motion', 'in the Lab', 'in Neon'],
    details: ['with traces of light running along the paths', 'with shallow depth of field', 'in a dark, developer-friendly palette', 'with lines of code blurred in the background', 'with glowing status lights', 'in cold blue light'],
  },
  movies: {
    popularity: 3,
    media: ['film still', 'poster art', 'fan artwork'],
    adjectives: ['Cinematic', 'Noir', 'Retro', 'Epic', 'Haunting', 'Classic', 'Dystopian', 'Western', 'Silent', 'Technicolor', 'Gritty', 'Dreamlike'],
    subjects: ['Theatre', 'Film Reel', 'Detective', 'Spaceship', 'Drive-In', 'Lone Rider', 'Robot', 'Movie Set', 'Heist', 'Clapperboard', 'Marquee', 'Hero'],
    settings: ['at Midnight', 'in Black and White', 'in the Rain', 'at the Premiere', 'in the Desert', 'on the Big Screen', 'after the Credits', 'in Hollywood'],
    details: ['framed in a wide anamorphic crop', 'with heavy film grain', 'lit like a classic noir', 'in a teal-and-orange grade', 'with smoke hanging in the projector beam', 'with letterbox bars removed'],
  },
  music: {
    popularity: 2,
    media: ['photograph', 'illustration', 'concert photo'],
    adjectives: ['Vintage', 'Electric', 'Acoustic', 'Neon', 'Jazz', 'Lo-Fi', 'Analog', 'Loud', 'Mellow', 'Golden', 'Synthwave', 'Smoky'],
    subjects: ['Guitar', 'Piano', 'Vinyl Records', 'Turntable', 'Headphones', 'Drum Kit', 'Saxophone', 'Stage', 'Synthesizer', 'Cassette', 'Microphone', 'Violin'],
    settings: ['on Stage', 'in the Studio', 'at Night', 'in the Spotlight', 'after the Show', 'in the Basement Club', 'at the Festival', 'in Warm Light'],
    details: ['with stage lights cutting through the haze', 'with the crowd a blur of raised hands', 'in warm, dusty tones', 'with every string in sharp focus', 'on a worn wooden floor', 'in a late-night lo-fi mood'],
  },
  sports: {
    popularity: 2,
    media: ['action photo', 'photograph', 'aerial photo'],
    adjectives: ['Empty', 'Packed', 'Floodlit', 'Muddy', 'Snowy', 'Dramatic', 'Final', 'Vintage', 'Extreme', 'Golden', 'Fast', 'Rainy'],
    subjects: ['Stadium', 'Surfer', 'Snowboarder', 'Basketball Court', 'Climber', 'Skatepark', 'Cyclist', 'Football Pitch', 'Tennis Court', 'Runner', 'Ski Slope', 'Boxing Ring'],
    settings: ['at Night', 'at Sunset', 'in the Rain', 'in the Alps', 'on Match Day', 'in Slow Motion', 'from Above', 'at Dawn'],
    details: ['frozen at the peak of the action', 'with the lines of the field in sharp relief', 'with spray and dust in the air', 'shot from the stands', 'with motion blur on the background', 'under harsh white floodlights'],
  },
  food: {
    popularity: 1,
    media: ['food photograph', 'close-up shot', 'flat-lay photo'],
    adjectives: ['Fresh', 'Rustic', 'Steaming', 'Sweet', 'Colourful', 'Homemade', 'Spicy', 'Warm', 'Crisp', 'Golden', 'Glazed', 'Seasonal'],
    subjects: ['Coffee', 'Ramen', 'Berries', 'Sourdough', 'Pancakes', 'Citrus', 'Macarons', 'Pizza', 'Sushi', 'Tea', 'Spices', 'Donuts'],
    settings: ['on a Wooden Table', 'on Marble', 'in the Morning', 'in Soft Light', 'from Above', 'on Slate', 'at Breakfast', 'in the Kitchen'],
    details: ['with steam curling up into the light', 'arranged on a dark background', 'with crumbs and flour scattered around', 'in warm, natural window light', 'with a shallow focus on the front edge', 'in bright, saturated colours'],
  },
};

export const MOODS = ['calm', 'moody', 'dreamy', 'vivid', 'serene', 'dramatic', 'quiet', 'bright', 'atmospheric', 'striking', 'peaceful', 'bold'] as const;

/** The word lists of a category; every category of the OpenAPI document must have them (a unit test checks). */
export function vocabularyOf(category: Category): CategoryVocabulary {
  const words = VOCABULARY[category];
  if (!words) throw new Error(`no vocabulary for category '${category}'`);
  return words;
}
