/**
 * Where a number of a country with several time zones is, from the start of its national number
 * (decisions.md 28.2). Each row: the IANA zone, the subdivision whose public holidays apply (the
 * `date-holidays` state code, or null for the country's own), and the prefixes, space-separated.
 * The longest matching prefix wins. Prefixes absent here (mobiles of AU, RU, ID, MX; shared or split
 * areas) leave the zone unknown: the campaign's zone is used instead.
 *
 * Geographic area codes only; an area code that straddles a zone line is given the zone of most of
 * its subscribers (US 850 and 812 Eastern, 208 Mountain, 541 Pacific, 807 Eastern).
 */
export type AreaRow = readonly [zone: string, region: string | null, prefixes: string];

const NY = 'America/New_York';
const CHI = 'America/Chicago';
const DEN = 'America/Denver';
const LA = 'America/Los_Angeles';

export const AREA_ZONES: Readonly<Record<string, readonly AreaRow[]>> = {
  US: [
    [CHI, 'AL', '205 251 256 334 659 938'],
    ['America/Anchorage', 'AK', '907'],
    ['America/Phoenix', 'AZ', '480 520 602 623 928'],
    [CHI, 'AR', '327 479 501 870'],
    [LA, 'CA', '209 213 279 310 323 341 350 369 408 415 424 442 510 530 559 562 619 626 628 650 657 661 669 707 714 747 760 805 818 820 831 840 858 909 916 925 949 951'],
    [DEN, 'CO', '303 719 720 970 983'],
    [NY, 'CT', '203 475 860 959'],
    [NY, 'DE', '302'],
    [NY, 'DC', '202 771'],
    [NY, 'FL', '239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954'],
    [NY, 'GA', '229 404 470 478 678 706 762 770 912 943'],
    ['Pacific/Honolulu', 'HI', '808'],
    ['America/Boise', 'ID', '208 986'],
    [CHI, 'IL', '217 224 309 312 331 447 464 618 630 708 730 773 779 815 847 861 872'],
    ['America/Indiana/Indianapolis', 'IN', '260 317 463 574 765 812 930'],
    [CHI, 'IN', '219'],
    [CHI, 'IA', '319 515 563 641 712'],
    [CHI, 'KS', '316 620 785 913'],
    [NY, 'KY', '502 606 859'],
    [CHI, 'KY', '270 364'],
    [CHI, 'LA', '225 318 337 504 985'],
    [NY, 'ME', '207'],
    [NY, 'MD', '227 240 301 410 443 667'],
    [NY, 'MA', '339 351 413 508 617 774 781 857 978'],
    ['America/Detroit', 'MI', '231 248 269 313 517 586 616 679 734 810 906 947 989'],
    [CHI, 'MN', '218 320 507 612 651 763 952'],
    [CHI, 'MS', '228 601 662 769'],
    [CHI, 'MO', '235 314 417 557 573 636 660 816 975'],
    [DEN, 'MT', '406'],
    [CHI, 'NE', '308 402 531'],
    [LA, 'NV', '702 725 775'],
    [NY, 'NH', '603'],
    [NY, 'NJ', '201 551 609 640 732 848 856 862 908 973'],
    [DEN, 'NM', '505 575'],
    [NY, 'NY', '212 315 332 347 363 516 518 585 607 631 646 680 716 718 838 845 914 917 929 934'],
    [NY, 'NC', '252 336 704 743 828 910 919 980 984'],
    [CHI, 'ND', '701'],
    [NY, 'OH', '216 220 234 283 326 330 380 419 436 440 513 567 614 740 937'],
    [CHI, 'OK', '405 539 572 580 918'],
    [LA, 'OR', '458 503 541 971'],
    [NY, 'PA', '215 223 267 272 412 445 484 570 582 610 717 724 814 835 878'],
    [NY, 'RI', '401'],
    [NY, 'SC', '803 839 843 854 864'],
    [CHI, 'SD', '605'],
    [CHI, 'TN', '615 629 731 901 931'],
    [NY, 'TN', '423 865'],
    [CHI, 'TX', '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 936 940 945 956 972 979'],
    [DEN, 'TX', '915'],
    [DEN, 'UT', '385 435 801'],
    [NY, 'VT', '802'],
    [NY, 'VA', '276 434 540 571 703 757 804 826 948'],
    [LA, 'WA', '206 253 360 425 509 564'],
    [NY, 'WV', '304 681'],
    [CHI, 'WI', '262 274 353 414 534 608 715 920'],
    [DEN, 'WY', '307'],
  ],
  CA: [
    ['America/Toronto', 'ON', '226 249 289 343 365 382 416 437 519 548 613 647 683 705 742 753 807 905'],
    ['America/Toronto', 'QC', '263 354 367 418 438 450 468 514 579 581 819 873'],
    ['America/Vancouver', 'BC', '236 250 257 604 672 778'],
    ['America/Edmonton', 'AB', '368 403 587 780 825'],
    ['America/Winnipeg', 'MB', '204 431 584'],
    ['America/Regina', 'SK', '306 474 639'],
    ['America/Halifax', 'NS', '782 902'],
    ['America/Moncton', 'NB', '428 506'],
    ['America/St_Johns', 'NL', '709 879'],
  ],
  AU: [
    ['Australia/Sydney', 'NSW', '2'],
    ['Australia/Melbourne', 'VIC', '3'],
    ['Australia/Brisbane', 'QLD', '7'],
    ['Australia/Adelaide', 'SA', '88'],
    ['Australia/Perth', 'WA', '86 89'],
  ],
  BR: [
    ['America/Sao_Paulo', 'SP', '11 12 13 14 15 16 17 18 19'],
    ['America/Sao_Paulo', 'RJ', '21 22 24'],
    ['America/Sao_Paulo', 'ES', '27 28'],
    ['America/Sao_Paulo', 'MG', '31 32 33 34 35 37 38'],
    ['America/Sao_Paulo', 'PR', '41 42 43 44 45 46'],
    ['America/Sao_Paulo', 'SC', '47 48 49'],
    ['America/Sao_Paulo', 'RS', '51 53 54 55'],
    ['America/Sao_Paulo', 'DF', '61'],
    ['America/Sao_Paulo', 'GO', '62 64'],
    ['America/Araguaina', 'TO', '63'],
    ['America/Cuiaba', 'MT', '65 66'],
    ['America/Campo_Grande', 'MS', '67'],
    ['America/Rio_Branco', 'AC', '68'],
    ['America/Porto_Velho', 'RO', '69'],
    ['America/Bahia', 'BA', '71 73 74 75 77'],
    ['America/Maceio', 'SE', '79'],
    ['America/Recife', 'PE', '81 87'],
    ['America/Maceio', 'AL', '82'],
    ['America/Fortaleza', 'PB', '83'],
    ['America/Fortaleza', 'RN', '84'],
    ['America/Fortaleza', 'CE', '85 88'],
    ['America/Fortaleza', 'PI', '86 89'],
    ['America/Belem', 'PA', '91 94'],
    ['America/Santarem', 'PA', '93'],
    ['America/Manaus', 'AM', '92 97'],
    ['America/Boa_Vista', 'RR', '95'],
    ['America/Belem', 'AP', '96'],
    ['America/Fortaleza', 'MA', '98 99'],
  ],
  MX: [
    ['America/Mexico_City', null, '55 56 33 222 442 477 443 444 449 461 228 229 771 777'],
    ['America/Monterrey', null, '81 844 871'],
    ['America/Tijuana', null, '664 686 646'],
    ['America/Cancun', null, '998 984 983'],
    ['America/Merida', null, '999'],
    ['America/Chihuahua', null, '614'],
    ['America/Hermosillo', null, '662'],
    ['America/Mazatlan', null, '669 612 667'],
  ],
  RU: [
    ['Europe/Moscow', null, '495 496 498 499 812 813 831 843 861 862 863 473 4862 4912'],
    ['Europe/Kaliningrad', null, '401'],
    ['Europe/Samara', null, '846 848'],
    ['Europe/Volgograd', null, '844'],
    ['Asia/Yekaterinburg', null, '343 351 342 347 345'],
    ['Asia/Omsk', null, '381'],
    ['Asia/Novosibirsk', null, '383'],
    ['Asia/Krasnoyarsk', null, '391'],
    ['Asia/Irkutsk', null, '395'],
    ['Asia/Yakutsk', null, '411'],
    ['Asia/Vladivostok', null, '423 421'],
    ['Asia/Magadan', null, '413'],
    ['Asia/Kamchatka', null, '415'],
  ],
  ID: [
    ['Asia/Jakarta', null, '21 22 24 31 61 274 251 254 341'],
    ['Asia/Pontianak', null, '561'],
    ['Asia/Makassar', null, '361 411 511 541 431'],
    ['Asia/Jayapura', null, '967 901'],
  ],
  // Countries with one main zone and a few outlying areas: the outlying prefixes here, the rest
  // takes the default zone (COUNTRY_MAIN_ZONES in recipient-locale.ts).
  ES: [['Atlantic/Canary', null, '822 828 922 928']],
  PT: [['Atlantic/Azores', null, '292 295 296']],
  NZ: [['Pacific/Chatham', null, '3305']],
  EC: [['Pacific/Galapagos', null, '52']],
};

/**
 * Countries with several zones whose numbers outside AREA_ZONES are (nearly) all in one of them.
 * A country not listed whose zones all share their UTC offsets takes its first zone; any other
 * multi-zone country without a table leaves the zone unknown.
 */
export const COUNTRY_MAIN_ZONES: Readonly<Record<string, string>> = {
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  NZ: 'Pacific/Auckland',
  EC: 'America/Guayaquil',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
};
